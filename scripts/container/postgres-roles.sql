-- The database roles of docker-compose.yml, run by its one-shot `postgres-roles` service as the
-- superuser on every `up` (idempotent: creates what is missing, sets the passwords from the
-- secret files, grants again). The passwords are read from /run/secrets/{migrator,server}_password
-- with psql's backquote expansion, so they are on no command line.
--
--   passkey_migrator  owns the database, so (PostgreSQL 15) its `public` schema, and every table
--                     the migrations create: `passkey-server migrate` connects as it.
--   passkey_server    table DML only (SELECT, INSERT, UPDATE, DELETE) and USAGE on the sequences;
--                     no DDL: it cannot create, alter or drop a table (not even a temporary one)
--                     nor own anything. `passkey-server serve` (and the commands an operator runs
--                     in its container) connect as it.
\set ON_ERROR_STOP on
\set migrator_password `cat /run/secrets/migrator_password`
\set server_password `cat /run/secrets/server_password`

SELECT 'CREATE ROLE passkey_migrator' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'passkey_migrator')
\gexec
SELECT 'CREATE ROLE passkey_server' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'passkey_server')
\gexec
ALTER ROLE passkey_migrator LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS INHERIT
    PASSWORD :'migrator_password';
ALTER ROLE passkey_server LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT
    PASSWORD :'server_password';

-- The migrator owns the database and with it (pg_database_owner) the public schema.
ALTER DATABASE passkey OWNER TO passkey_migrator;
REVOKE ALL ON DATABASE passkey FROM PUBLIC;
GRANT CONNECT ON DATABASE passkey TO passkey_server;

REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO passkey_server;
-- What exists (a later `up` on a migrated database), and what later migrations create.
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO passkey_server;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO passkey_server;
ALTER DEFAULT PRIVILEGES FOR ROLE passkey_migrator IN SCHEMA public
    GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO passkey_server;
ALTER DEFAULT PRIVILEGES FOR ROLE passkey_migrator IN SCHEMA public
    GRANT USAGE ON SEQUENCES TO passkey_server;
