"""Database access: where the server is (embedded or configured), the pool, and migrations."""
