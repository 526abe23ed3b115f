#!/bin/sh
# First start of the pgvector/pgvector container: the role the app connects as. It owns nothing and
# is no superuser; `docschat db grant docschat_app` (the compose migrate service) gives it its grants.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v app_password="$DOCSCHAT_APP_PASSWORD" <<'EOSQL'
create role docschat_app login password :'app_password' nosuperuser nocreatedb nocreaterole nobypassrls;
EOSQL
