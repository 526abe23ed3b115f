"""Insights (issue 48): what readers ask and what they get, per day (record.py writes, report.py reads)."""
