-- Contract v3, "Ceremony rules": a new-account registration answers at most 5 failing finishes
-- (any 4xx after the registration was found) and is then used up. The count lives here, so that
-- it holds across instances; it is raised by one conditional UPDATE, so that it holds under
-- concurrent finishes (see PostgresAccountRegistrationRepository.recordFailedFinish).

ALTER TABLE passkey_account_registrations
    ADD COLUMN failed_finishes integer NOT NULL DEFAULT 0 CHECK (failed_finishes >= 0);
