//! Move notation (Chinese, WXF, ICCS) and game records (PGN).
