"""The operator console: admin API and page (only with ADMIN_TOKEN), sync jobs and the scheduler."""
