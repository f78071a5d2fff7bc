// Command goserver is the benchmark's Go reference sign-in server: Debian's duo-labs/webauthn
// (0.0~git20220815) for the assertion checks, pgx v4 (4.15) with its pool for PostgreSQL,
// net/http for HTTP.
//
// It is the Go twin of bench/pyserver/app.py: the same two passkey sign-in endpoints of
// shared/spec.md, the same JSON shapes, the same schema and the same SQL statements:
//
//	POST /v1/passkeys/authentications         INSERT challenge                         (1 round trip)
//	POST /v1/passkeys/authentications/finish  consume challenge + read credential CTE  (round trip 1)
//	                                          verify with duo-labs/webauthn
//	                                          update counter + insert session CTE      (round trip 2)
//
// Built in GOPATH mode over /usr/share/gocode (bench/run.sh does it; no module proxy):
//
//	GO111MODULE=off GOPATH=/usr/share/gocode:<scratch> go build -o goserver .
//
// Environment: DATABASE_URL (libpq conninfo), DATABASE_POOL_SIZE (connections in all), HOST,
// PORT, PASSKEY_RP_ID, PASSKEY_ORIGINS (comma-separated), CHALLENGE_LIFETIME_SECONDS,
// SESSION_LIFETIME_SECONDS.
//
// Only the sign-in ceremony is implemented; it is a yardstick, not a product.
package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/duo-labs/webauthn/protocol"
	"github.com/google/uuid"
	"github.com/jackc/pgtype"
	"github.com/jackc/pgx/v4/pgxpool"
)

// The same statements as bench/pyserver/app.py (placeholders in pgx's style).
const insertChallenge = `
WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true))
INSERT INTO passkey_authentication_challenges (id, challenge, expires_at, consumed_at)
SELECT $1, $2, $3, $4 FROM relaxed
`

const credentialColumns = `
pc.credential_id, pc.account_id, pc.public_key, pc.algorithm, pc.sign_count, pc.aaguid,
array_to_string(pc.transports, ','), pc.backup_eligible, pc.backup_state, pc.attestation_format,
pc.attestation_type, pc.resident_key, pc.user_verified, pc.name, pc.created_at, pc.last_used_at
`

const consumeAndRead = `
WITH c AS (
    UPDATE passkey_authentication_challenges SET consumed_at = now()
    WHERE id = $1 AND consumed_at IS NULL AND expires_at > now()
    RETURNING challenge, expires_at, consumed_at
)
SELECT c.challenge, c.expires_at, c.consumed_at, a.id, a.display_name, a.created_at,
       ` + credentialColumns + `
FROM (SELECT 1) AS one
LEFT JOIN c ON true
LEFT JOIN passkey_credentials pc ON pc.credential_id = $2
LEFT JOIN accounts a ON a.id = pc.account_id
`

const recordAssertion = `
WITH u AS (
    UPDATE passkey_credentials
    SET sign_count = GREATEST(sign_count, $1), backup_state = $2,
        last_used_at = $3
    WHERE credential_id = $4 AND sign_count = $5
    RETURNING account_id
)
INSERT INTO authentication_sessions (id, account_id, token_digest, method, created_at, expires_at)
SELECT $6, u.account_id, $7, $8, $9,
       $10
FROM u
`

type server struct {
	pool              *pgxpool.Pool
	rpID              string
	origins           []string
	challengeLifetime time.Duration
	sessionLifetime   time.Duration
}

func env(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

func envInt(name string, fallback int) int {
	v, err := strconv.Atoi(env(name, strconv.Itoa(fallback)))
	if err != nil {
		log.Fatalf("goserver: %s must be an integer", name)
	}
	return v
}

func b64url(data []byte) string { return base64.RawURLEncoding.EncodeToString(data) }

// fromB64 decodes unpadded or padded base64url, or standard base64 (as the spec accepts).
func fromB64(value *string) []byte {
	if value == nil || *value == "" {
		return nil
	}
	s := strings.NewReplacer("-", "+", "_", "/").Replace(strings.TrimSpace(*value))
	if pad := len(s) % 4; pad != 0 {
		s += strings.Repeat("=", 4-pad)
	}
	out, err := base64.StdEncoding.Strict().DecodeString(s)
	if err != nil {
		return nil
	}
	return out
}

func rfc3339(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

func writeJSON(w http.ResponseWriter, status int, contentType string, body interface{}) {
	data, err := json.Marshal(body)
	if err != nil {
		status, data = http.StatusInternalServerError, []byte(`{}`)
	}
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(status)
	_, _ = w.Write(data)
}

type problemBody struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail"`
	Code   string `json:"code"`
}

var titles = map[int]string{400: "Bad Request", 401: "Unauthorized", 500: "Internal Server Error", 503: "Service Unavailable"}

func problem(w http.ResponseWriter, status int, code, detail string) {
	title, ok := titles[status]
	if !ok {
		title = "Error"
	}
	writeJSON(w, status, "application/problem+json",
		problemBody{Type: "about:blank", Title: title, Status: status, Detail: detail, Code: code})
}

func failed(w http.ResponseWriter) {
	problem(w, http.StatusUnauthorized, "authentication-failed", "The passkey could not be verified.")
}

// requestOptions is py_webauthn's options_to_json_dict output plus the spec's empty lists, on
// the library's own types.
type requestOptions struct {
	Challenge          protocol.URLEncodedBase64            `json:"challenge"`
	Timeout            int                                  `json:"timeout"`
	RelyingPartyID     string                               `json:"rpId"`
	AllowedCredentials []protocol.CredentialDescriptor      `json:"allowCredentials"`
	UserVerification   protocol.UserVerificationRequirement `json:"userVerification"`
	Hints              []string                             `json:"hints"`
}

type startResponse struct {
	ChallengeID    string         `json:"challengeID"`
	RelyingPartyID string         `json:"relyingPartyID"`
	Challenge      string         `json:"challenge"`
	ExpiresAt      string         `json:"expiresAt"`
	PublicKey      requestOptions `json:"publicKey"`
}

func (s *server) start(w http.ResponseWriter, r *http.Request) {
	challenge := make([]byte, 32)
	if _, err := rand.Read(challenge); err != nil {
		problem(w, 500, "internal", "No randomness.")
		return
	}
	id := uuid.New()
	expiresAt := time.Now().UTC().Add(s.challengeLifetime)
	if _, err := s.pool.Exec(r.Context(), insertChallenge, id, challenge, expiresAt, nil); err != nil {
		log.Printf("goserver: insert challenge: %v", err)
		problem(w, 503, "database-unavailable", "The database did not answer.")
		return
	}
	writeJSON(w, 200, "application/json", startResponse{
		ChallengeID:    id.String(),
		RelyingPartyID: s.rpID,
		Challenge:      b64url(challenge),
		ExpiresAt:      rfc3339(expiresAt),
		PublicKey: requestOptions{
			Challenge:          challenge,
			Timeout:            int(s.challengeLifetime / time.Millisecond),
			RelyingPartyID:     s.rpID,
			AllowedCredentials: []protocol.CredentialDescriptor{},
			UserVerification:   protocol.VerificationRequired,
			Hints:              []string{},
		},
	})
}

type finishRequest struct {
	ChallengeID       *string `json:"challengeID"`
	CredentialID      *string `json:"credentialID"`
	ClientDataJSON    *string `json:"clientDataJSON"`
	AuthenticatorData *string `json:"authenticatorData"`
	Signature         *string `json:"signature"`
	UserHandle        *string `json:"userHandle"`
}

type finishResponse struct {
	AccessToken string `json:"accessToken"`
	TokenType   string `json:"tokenType"`
	ExpiresAt   string `json:"expiresAt"`
	AccountID   string `json:"accountID"`
	DisplayName string `json:"displayName"`
}

func (s *server) finish(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		problem(w, 400, "invalid-request", "The body could not be read.")
		return
	}
	var body finishRequest
	if err := json.Unmarshal(raw, &body); err != nil {
		problem(w, 400, "invalid-request", "The body must be a JSON object.")
		return
	}
	if body.ChallengeID == nil {
		problem(w, 400, "invalid-request", "challengeID must be a UUID.")
		return
	}
	challengeID, err := uuid.Parse(*body.ChallengeID)
	if err != nil {
		problem(w, 400, "invalid-request", "challengeID must be a UUID.")
		return
	}
	fields := map[string]*string{"credentialID": body.CredentialID, "clientDataJSON": body.ClientDataJSON,
		"authenticatorData": body.AuthenticatorData, "signature": body.Signature}
	decoded := map[string][]byte{}
	for _, name := range []string{"credentialID", "clientDataJSON", "authenticatorData", "signature"} {
		value := fromB64(fields[name])
		if value == nil {
			problem(w, 400, "invalid-request", name+" is missing or not base64url.")
			return
		}
		decoded[name] = value
	}
	userHandle := fromB64(body.UserHandle)
	credentialID := decoded["credentialID"]
	if len(credentialID) < 1 || len(credentialID) > 1023 {
		problem(w, 400, "invalid-request", "credentialID must be 1 to 1023 bytes.")
		return
	}

	var (
		expectedChallenge []byte
		accountID         pgtype.UUID
		displayName       pgtype.Text
		storedCredential  []byte
		publicKey         []byte
		storedCount       pgtype.Int8
		backupEligible    pgtype.Bool
	)
	// Columns the ceremony does not use are skipped (nil), as the Python row ignores them.
	err = s.pool.QueryRow(r.Context(), consumeAndRead, challengeID, credentialID).Scan(
		&expectedChallenge, nil, nil, &accountID, &displayName, nil,
		&storedCredential, nil, &publicKey, nil, &storedCount, nil,
		nil, &backupEligible, nil, nil,
		nil, nil, nil, nil, nil, nil)
	if err != nil {
		log.Printf("goserver: consume challenge: %v", err)
		problem(w, 503, "database-unavailable", "The database did not answer.")
		return
	}
	if expectedChallenge == nil {
		problem(w, 400, "challenge-unavailable", "The challenge is unknown, expired or used.")
		return
	}
	if storedCredential == nil || accountID.Status != pgtype.Present {
		problem(w, 401, "unknown-credential", "No passkey has this credential ID.")
		return
	}
	if userHandle == nil || string(userHandle) != string(accountID.Bytes[:]) {
		failed(w)
		return
	}

	// The library's own assertion checks: ParseCredentialRequestResponseBody's steps without its
	// JSON round trip (the fields are already decoded), then ParsedCredentialAssertionData.Verify
	// (type, challenge, origin, rpIdHash, UP, UV, signature over authData ‖ SHA-256(clientData)).
	var parsed protocol.ParsedCredentialAssertionData
	parsed.ID, parsed.RawID, parsed.Type = b64url(credentialID), credentialID, "public-key"
	parsed.Raw.ID, parsed.Raw.RawID, parsed.Raw.Type = parsed.ID, credentialID, "public-key"
	parsed.Raw.AssertionResponse.ClientDataJSON = decoded["clientDataJSON"]
	parsed.Raw.AssertionResponse.AuthenticatorData = decoded["authenticatorData"]
	parsed.Raw.AssertionResponse.Signature = decoded["signature"]
	parsed.Raw.AssertionResponse.UserHandle = userHandle
	parsed.Response.Signature = decoded["signature"]
	parsed.Response.UserHandle = userHandle
	if json.Unmarshal(decoded["clientDataJSON"], &parsed.Response.CollectedClientData) != nil ||
		parsed.Response.AuthenticatorData.Unmarshal(decoded["authenticatorData"]) != nil {
		failed(w)
		return
	}
	// Verify takes one origin: the client's, when it is one of PASSKEY_ORIGINS (Verify compares).
	origin := ""
	if u, err := url.Parse(parsed.Response.CollectedClientData.Origin); err == nil {
		for _, o := range s.origins {
			if strings.EqualFold(protocol.FullyQualifiedOrigin(u), o) {
				origin = o
			}
		}
	}
	if origin == "" {
		failed(w)
		return
	}
	if parsed.Verify(b64url(expectedChallenge), s.rpID, origin, "", true, publicKey) != nil {
		failed(w)
		return
	}
	// What py_webauthn checks and Verify leaves to its caller: the counter goes up unless both
	// are 0. Then the checks the Python row adds: BE unchanged, BE=0 with both counters 0.
	newCount := int64(parsed.Response.AuthenticatorData.Counter)
	stored := storedCount.Int
	if (newCount > 0 || stored > 0) && newCount <= stored {
		failed(w)
		return
	}
	// This library version predates the BE (0x08) and BS (0x10) flags: read them from the byte.
	flags := decoded["authenticatorData"][32]
	newBE := flags&0x08 != 0
	if newBE != backupEligible.Bool {
		failed(w)
		return
	}
	if newCount == 0 && stored == 0 && !backupEligible.Bool {
		failed(w)
		return
	}

	token := make([]byte, 32)
	if _, err := rand.Read(token); err != nil {
		problem(w, 500, "internal", "No randomness.")
		return
	}
	digest := sha256.Sum256(token)
	now := time.Now().UTC()
	expiresAt := now.Add(s.sessionLifetime)
	tag, err := s.pool.Exec(r.Context(), recordAssertion,
		newCount, flags&0x10 != 0, now, credentialID, stored,
		uuid.New(), digest[:], "passkey", now, expiresAt)
	if err != nil {
		log.Printf("goserver: record assertion: %v", err)
		problem(w, 503, "database-unavailable", "The database did not answer.")
		return
	}
	if tag.RowsAffected() != 1 {
		failed(w)
		return
	}
	writeJSON(w, 200, "application/json", finishResponse{
		AccessToken: b64url(token),
		TokenType:   "Bearer",
		ExpiresAt:   rfc3339(expiresAt),
		AccountID:   uuid.UUID(accountID.Bytes).String(),
		DisplayName: displayName.String,
	})
}

func main() {
	poolSize := envInt("DATABASE_POOL_SIZE", 8)
	config, err := pgxpool.ParseConfig(os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatalf("goserver: DATABASE_URL: %v", err)
	}
	config.MaxConns, config.MinConns = int32(poolSize), int32(poolSize)
	ctx := context.Background()
	pool, err := pgxpool.ConnectConfig(ctx, config)
	if err != nil {
		log.Fatalf("goserver: connect: %v", err)
	}
	defer pool.Close()
	// Open every connection before serving, as the Python row's pool does (open(wait=True)).
	conns := make([]*pgxpool.Conn, 0, poolSize)
	for i := 0; i < poolSize; i++ {
		c, err := pool.Acquire(ctx)
		if err != nil {
			log.Fatalf("goserver: connect: %v", err)
		}
		conns = append(conns, c)
	}
	for _, c := range conns {
		c.Release()
	}

	var origins []string
	for _, o := range strings.Split(env("PASSKEY_ORIGINS", "http://localhost:8080"), ",") {
		if o = strings.TrimSpace(o); o != "" {
			origins = append(origins, o)
		}
	}
	s := &server{
		pool:              pool,
		rpID:              env("PASSKEY_RP_ID", "localhost"),
		origins:           origins,
		challengeLifetime: time.Duration(envInt("CHALLENGE_LIFETIME_SECONDS", 300)) * time.Second,
		sessionLifetime:   time.Duration(envInt("SESSION_LIFETIME_SECONDS", 2592000)) * time.Second,
	}
	post := func(h http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodPost {
				problem(w, 405, "method-not-allowed", "Use POST.")
				return
			}
			h(w, r)
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/passkeys/authentications", post(s.start))
	mux.HandleFunc("/v1/passkeys/authentications/finish", post(s.finish))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, "application/json", map[string]string{"status": "ok"})
	})
	addr := net.JoinHostPort(env("HOST", "127.0.0.1"), env("PORT", "8080"))
	httpServer := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-stop
		shutdown, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		_ = httpServer.Shutdown(shutdown)
	}()
	if err := httpServer.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatalf("goserver: %v", err)
	}
}
