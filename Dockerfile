# Build stage: the official Swift image on Debian 12 plus the C libraries' headers.
FROM swift:6.3-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends pkg-config libpq-dev libssl-dev libmicrohttpd-dev \
      libsodium-dev libcrypt-dev libcurl4-openssl-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
# SwiftPM checks that every folder the manifest names exists: the test targets' and the example
# app's too (scripts/check-image-context.py, run by make test, fails when one is missing here).
COPY Tests ./Tests
COPY Examples ./Examples
RUN swift build -c release --product passkey-server --static-swift-stdlib \
 && cp "$(swift build -c release --show-bin-path)/passkey-server" /passkey-server

# Runtime stage: only the shared libraries the binary links.
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libpq5 libssl3 libmicrohttpd12 libsodium23 libcrypt1 \
      libcurl4 ca-certificates tzdata \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 passkey \
 && useradd --system --uid 10001 --gid passkey --no-create-home --home-dir /app --shell /usr/sbin/nologin passkey
WORKDIR /app
COPY --from=build /passkey-server /usr/local/bin/passkey-server
# Secrets from files (DATABASE_PASSWORD_FILE, METRICS_TOKEN_FILE), then passkey-server (mode 755 in git).
COPY scripts/container/passkey-entrypoint.sh /usr/local/bin/passkey-entrypoint
COPY Migrations ./Migrations
COPY openapi.json ./openapi.json
COPY TrustAnchors ./TrustAnchors
COPY WebClient ./WebClient
ENV PASSKEY_MIGRATIONS_DIR=/app/Migrations PASSKEY_OPENAPI_FILE=/app/openapi.json \
    PASSKEY_WEB_CLIENT_DIR=/app/WebClient HOST=0.0.0.0 PORT=8080
# Runs as passkey (uid/gid 10001); nothing is written under /app, so a read-only root works (the
# entrypoint writes the database password file to /tmp, a tmpfs in docker-compose.yml).
USER passkey
EXPOSE 8080
ENTRYPOINT ["passkey-entrypoint"]
CMD ["serve"]
