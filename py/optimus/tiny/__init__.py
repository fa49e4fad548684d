"""The tiny game: the smallest game that uses every part of the rules protocol."""
