"""Offline tools for Optimus 2 (not shipped to the page)."""
