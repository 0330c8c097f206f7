"""Speed and strength measurements; run by ``make bench`` (never by CI)."""
