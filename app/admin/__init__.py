"""The operator console: admin API and page (only with ADMIN_TOKEN), the retrieval tester."""
