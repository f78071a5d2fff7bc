#ifndef PASSKEY_CLIBPQ_SHIM_H
#define PASSKEY_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#include <postgres_ext.h>
/* PG_DIAG_* are character macros; re-export them as constants Swift can see. */
static const int passkey_pg_diag_sqlstate = 'C';
static const int passkey_pg_diag_constraint_name = 'n';
static const int passkey_pg_diag_message_primary = 'M';
static const int passkey_pg_diag_severity_nonlocalized = 'V';

#endif
