-- Undo 017_lease.sql. Its functions (sql/functions/docs_lease_*.sql) stay, as every function file
-- does on a downgrade (design/sql-layout.md): plpgsql, they read the table only when called.
drop table if exists public.docs_lease;
