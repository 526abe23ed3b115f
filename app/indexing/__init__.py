"""The index pipeline: compose -> plan -> embed -> apply (sync), sync jobs (one at a time,
recorded), the server's runner and re-check scheduler, status and clearing."""
