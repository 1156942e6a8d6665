"""Serengeti and Don: the rules, the table pages, the calculator and a whole game in Chromium."""
