// Placeholder until the HTTP wrapper lands.
