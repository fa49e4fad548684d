"""Offline tools for Optimus (not shipped to the page)."""
