// Placeholder until the password hashers land.
