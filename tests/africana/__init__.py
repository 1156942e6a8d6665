"""Africana's tests: its rules, its pages, its browser run, and its random-game generator."""
