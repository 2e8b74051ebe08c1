"""Stage 6: the ways in: command line, HTTP API and web page."""
