// Command fleetload is the load of `make fleet-test` (scripts/fleet-test.sh): a mix of every
// write the product acknowledges, sent through the balancer while faults are injected, with
// each request and each acknowledged write recorded, and the checks afterwards.
//
//	fleetload run    -url U -origin O -rp ID -workers N -out DIR -stop FILE
//	    runs until FILE exists; DIR/requests.jsonl gets one line per request, DIR/acks.jsonl one
//	    line per acknowledged write (201 account, 200 session token, 204 or 201 passkey, 202 mail)
//	fleetload export -out DIR
//	    writes the acknowledged account IDs, credential IDs (hex) and recovery addresses as
//	    DIR/acked-{accounts,credentials,mails}.txt for the SQL check
//	fleetload tokens -url U -out DIR [-since EPOCH]
//	    GET /v1/account with every acknowledged token (issued after EPOCH): each must answer 200
//	    with its own account
//	fleetload report -out DIR -phases FILE
//	    one summary line per fault and the goal it had; exits 1 when a goal is missed
//
// Only the Go standard library is used.
package main

import (
	"bufio"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

var b64 = base64.RawURLEncoding

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: fleetload run|export|tokens|report ...")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "run":
		run(os.Args[2:])
	case "export":
		export(os.Args[2:])
	case "tokens":
		tokens(os.Args[2:])
	case "report":
		report(os.Args[2:])
	default:
		fmt.Fprintln(os.Stderr, "fleetload: unknown command", os.Args[1])
		os.Exit(2)
	}
}

// request is one line of requests.jsonl.
type request struct {
	Start  float64 `json:"t"`
	End    float64 `json:"e"`
	Op     string  `json:"op"`
	Status int     `json:"status"` // 0: transport error
	Code   string  `json:"code,omitempty"`
	Worker int     `json:"w"`
}

// ack is one line of acks.jsonl: a write the server acknowledged.
type ack struct {
	Kind       string  `json:"kind"` // account, token, passkey, mail
	At         float64 `json:"at"`
	AccountID  string  `json:"accountID,omitempty"`
	Token      string  `json:"token,omitempty"`
	Credential string  `json:"credential,omitempty"` // hex
	Email      string  `json:"email,omitempty"`
}

type recorder struct {
	mu       sync.Mutex
	requests *bufio.Writer
	acks     *bufio.Writer
}

func (r *recorder) request(q request) {
	line, _ := json.Marshal(q)
	r.mu.Lock()
	r.requests.Write(line)
	r.requests.WriteByte('\n')
	r.mu.Unlock()
}

// ack is written (and flushed) at once: a check run meanwhile sees every write acknowledged so far.
func (r *recorder) ack(a ack) {
	line, _ := json.Marshal(a)
	r.mu.Lock()
	r.acks.Write(line)
	r.acks.WriteByte('\n')
	r.acks.Flush()
	r.mu.Unlock()
}

func epoch(t time.Time) float64 { return float64(t.UnixNano()) / 1e9 }

type credential struct {
	id        []byte
	key       *ecdsa.PrivateKey
	accountID [16]byte
	counter   uint32
}

type passwordAccount struct {
	email, password, id string
	mailed              bool
}

type worker struct {
	n        int
	base     string
	origin   string
	rpIDHash [32]byte
	client   *http.Client
	rec      *recorder
	sequence int
	accounts []*passwordAccount
	creds    []*credential
	nextCred int
	mailOn   bool
}

// call sends one request and records it; the body is nil on a transport error.
func (w *worker) call(op, method, path string, body any, token string) (int, []byte) {
	var reader io.Reader
	if body != nil {
		encoded, _ := json.Marshal(body)
		reader = bytes.NewReader(encoded)
	}
	req, _ := http.NewRequest(method, w.base+path, reader)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	t0 := time.Now()
	resp, err := w.client.Do(req)
	q := request{Start: epoch(t0), Op: op, Worker: w.n}
	if err != nil {
		q.End = epoch(time.Now())
		q.Code = "transport: " + err.Error()
		w.rec.request(q)
		return 0, nil
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	q.End = epoch(time.Now())
	q.Status = resp.StatusCode
	if err != nil {
		q.Status, q.Code = 0, "transport: "+err.Error()
		w.rec.request(q)
		return 0, nil
	}
	if resp.StatusCode >= 400 {
		var problem struct {
			Code string `json:"code"`
		}
		json.Unmarshal(data, &problem)
		q.Code = problem.Code
		if resp.StatusCode == 503 && resp.Header.Get("Retry-After") == "" {
			q.Code += " (no Retry-After)"
		}
	}
	w.rec.request(q)
	if resp.StatusCode == 503 {
		// A client honours Retry-After; this one pauses briefly, so a fault's count of
		// answers stays comparable between runs instead of measuring a tight loop.
		time.Sleep(100 * time.Millisecond)
	}
	return resp.StatusCode, data
}

// The mix, in turn: a password sign-up, its sign-in and a passkey added to it, a passkey
// sign-up, two passkey sign-ins, and a recovery mail for a password account.
func (w *worker) step() {
	w.sequence++
	switch w.sequence % 6 {
	case 0:
		w.passwordSignUp()
	case 1:
		w.passwordSignInAndAddPasskey()
	case 2:
		w.passkeySignUp()
	case 3, 4:
		w.passkeySignIn()
	case 5:
		w.recoveryMail()
	}
}

func (w *worker) passwordSignUp() {
	a := &passwordAccount{
		email:    fmt.Sprintf("w%d-%d-%s@fleet.example", w.n, w.sequence, randomHex(4)),
		password: "fleet password " + randomHex(8),
	}
	status, body := w.call("password-sign-up", "POST", "/v1/accounts",
		map[string]string{"email": a.email, "displayName": "Fleet user", "password": a.password}, "")
	if status != 201 {
		return
	}
	var created struct {
		AccountID string `json:"accountID"`
	}
	if json.Unmarshal(body, &created) != nil || created.AccountID == "" {
		return
	}
	a.id = created.AccountID
	w.accounts = append(w.accounts, a)
	w.rec.ack(ack{Kind: "account", At: epoch(time.Now()), AccountID: a.id, Email: a.email})
}

type session struct {
	AccessToken string `json:"accessToken"`
	AccountID   string `json:"accountID"`
}

func (w *worker) tokenFrom(body []byte) (session, bool) {
	var s session
	if json.Unmarshal(body, &s) != nil || s.AccessToken == "" || s.AccountID == "" {
		return s, false
	}
	w.rec.ack(ack{Kind: "token", At: epoch(time.Now()), AccountID: s.AccountID, Token: s.AccessToken})
	return s, true
}

// challengeOptions is what a ceremony's start answers that the load needs.
type challengeOptions struct {
	ChallengeID string `json:"challengeID"`
	Challenge   string `json:"challenge"`
}

// start sends a ceremony's start (a passkey addition or a sign-in); false unless it answered 200
// with options.
func (w *worker) start(op, path string, body any, token string) (challengeOptions, bool) {
	var options challengeOptions
	status, data := w.call(op, "POST", path, body, token)
	if status != 200 || json.Unmarshal(data, &options) != nil {
		return options, false
	}
	return options, true
}

func (w *worker) passwordSignInAndAddPasskey() {
	if len(w.accounts) == 0 {
		return
	}
	a := w.accounts[len(w.accounts)-1]
	status, body := w.call("password-sign-in", "POST", "/v1/sessions",
		map[string]string{"email": a.email, "password": a.password}, "")
	if status != 200 {
		return
	}
	s, ok := w.tokenFrom(body)
	if !ok {
		return
	}
	options, ok := w.start("passkey-add-start", "/v1/passkeys/registrations", map[string]string{}, s.AccessToken)
	if !ok {
		return
	}
	c, fields := w.newCredential(options.Challenge, accountBytes(s.AccountID))
	fields["challengeID"] = options.ChallengeID
	if status, _ = w.call("passkey-add-finish", "POST", "/v1/passkeys/registrations/finish", fields, s.AccessToken); status == 204 {
		w.keep(c)
	}
}

func (w *worker) passkeySignUp() {
	email := fmt.Sprintf("w%d-%d-%s@passkey.fleet.example", w.n, w.sequence, randomHex(4))
	status, body := w.call("passkey-sign-up-start", "POST", "/v1/passkey-accounts/registrations",
		map[string]string{"email": email, "displayName": "Fleet passkey user"}, "")
	if status != 200 {
		return
	}
	var options struct {
		RegistrationID string `json:"registrationID"`
		Challenge      string `json:"challenge"`
		UserID         string `json:"userID"`
	}
	if json.Unmarshal(body, &options) != nil {
		return
	}
	user, err := b64.DecodeString(options.UserID)
	if err != nil || len(user) != 16 {
		return
	}
	var id [16]byte
	copy(id[:], user)
	c, fields := w.newCredential(options.Challenge, id)
	fields["registrationID"] = options.RegistrationID
	fields["email"] = email
	fields["displayName"] = "Fleet passkey user"
	status, body = w.call("passkey-sign-up-finish", "POST", "/v1/passkey-accounts/registrations/finish", fields, "")
	if status != 201 {
		return
	}
	if s, ok := w.tokenFrom(body); ok {
		w.rec.ack(ack{Kind: "account", At: epoch(time.Now()), AccountID: s.AccountID, Email: email})
		w.keep(c)
	}
}

func (w *worker) keep(c *credential) {
	w.creds = append(w.creds, c)
	w.rec.ack(ack{Kind: "passkey", At: epoch(time.Now()), AccountID: uuidString(c.accountID), Credential: hex.EncodeToString(c.id)})
}

func (w *worker) passkeySignIn() {
	if len(w.creds) == 0 {
		return
	}
	c := w.creds[w.nextCred%len(w.creds)]
	w.nextCred++
	options, ok := w.start("passkey-sign-in-start", "/v1/passkeys/authentications", nil, "")
	if !ok {
		return
	}
	c.counter++
	clientData := []byte(`{"type":"webauthn.get","challenge":"` + options.Challenge + `","origin":"` + w.origin + `","crossOrigin":false}`)
	authData := make([]byte, 37)
	copy(authData, w.rpIDHash[:])
	authData[32] = 0x05 // UP | UV
	binary.BigEndian.PutUint32(authData[33:], c.counter)
	clientHash := sha256.Sum256(clientData)
	signed := sha256.Sum256(append(append([]byte{}, authData...), clientHash[:]...))
	signature, err := ecdsa.SignASN1(rand.Reader, c.key, signed[:])
	if err != nil {
		return
	}
	status, body := w.call("passkey-sign-in-finish", "POST", "/v1/passkeys/authentications/finish", map[string]string{
		"challengeID": options.ChallengeID, "credentialID": b64.EncodeToString(c.id),
		"clientDataJSON": b64.EncodeToString(clientData), "authenticatorData": b64.EncodeToString(authData),
		"signature": b64.EncodeToString(signature), "userHandle": b64.EncodeToString(c.accountID[:]),
	}, "")
	if status == 200 {
		w.tokenFrom(body)
	}
}

func (w *worker) recoveryMail() {
	if !w.mailOn {
		return
	}
	for _, a := range w.accounts {
		if a.mailed {
			continue
		}
		status, _ := w.call("recovery-mail", "POST", "/v1/recovery/email", map[string]string{"email": a.email}, "")
		if status == 202 {
			a.mailed = true
			w.rec.ack(ack{Kind: "mail", At: epoch(time.Now()), AccountID: a.id, Email: a.email})
		}
		return
	}
}

// newCredential makes an ES256 key pair and the registration's finish fields ("none"
// attestation, UP and UV set, counter 0).
func (w *worker) newCredential(challenge string, account [16]byte) (*credential, map[string]any) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	id := make([]byte, 16)
	rand.Read(id)
	clientData := []byte(`{"type":"webauthn.create","challenge":"` + challenge + `","origin":"` + w.origin + `","crossOrigin":false}`)
	x, y := make([]byte, 32), make([]byte, 32)
	key.PublicKey.X.FillBytes(x)
	key.PublicKey.Y.FillBytes(y)
	// COSE_Key {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}
	cose := append([]byte{0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20}, x...)
	cose = append(append(cose, 0x22, 0x58, 0x20), y...)
	authData := append([]byte{}, w.rpIDHash[:]...)
	authData = append(authData, 0x45, 0, 0, 0, 0) // UP | UV | AT, counter 0
	authData = append(authData, make([]byte, 16)...)
	authData = append(authData, byte(len(id)>>8), byte(len(id)))
	authData = append(append(authData, id...), cose...)
	object := []byte{0xa3, 0x63, 'f', 'm', 't', 0x64, 'n', 'o', 'n', 'e', 0x67, 'a', 't', 't', 'S', 't', 'm', 't', 0xa0,
		0x68, 'a', 'u', 't', 'h', 'D', 'a', 't', 'a'}
	object = append(cborBytesHead(len(authData), object), authData...)
	return &credential{id: id, key: key, accountID: account}, map[string]any{
		"credentialID": b64.EncodeToString(id), "clientDataJSON": b64.EncodeToString(clientData),
		"attestationObject": b64.EncodeToString(object), "transports": []string{"internal"},
	}
}

func cborBytesHead(n int, to []byte) []byte {
	switch {
	case n < 24:
		return append(to, 0x40|byte(n))
	case n < 256:
		return append(to, 0x58, byte(n))
	default:
		return append(to, 0x59, byte(n>>8), byte(n))
	}
}

func accountBytes(id string) [16]byte {
	var out [16]byte
	raw, _ := hex.DecodeString(strings.ReplaceAll(id, "-", ""))
	copy(out[:], raw)
	return out
}

func uuidString(b [16]byte) string {
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func newClient() *http.Client {
	return &http.Client{
		Timeout: 60 * time.Second,
		Transport: &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
			MaxIdleConnsPerHost: 4,
		},
	}
}

func run(args []string) {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	base := fs.String("url", "", "the balancer's URL")
	origin := fs.String("origin", "http://localhost:8080", "the web origin the authenticator signs for")
	rpID := fs.String("rp", "localhost", "relying party ID")
	workers := fs.Int("workers", 6, "closed-loop workers")
	out := fs.String("out", "", "output folder")
	stop := fs.String("stop", "", "stop once this file exists")
	mail := fs.Bool("mail", true, "send recovery mails")
	fs.Parse(args)
	requests, err := os.Create(*out + "/requests.jsonl")
	check(err)
	acks, err := os.Create(*out + "/acks.jsonl")
	check(err)
	rec := &recorder{requests: bufio.NewWriter(requests), acks: bufio.NewWriter(acks)}
	var wg sync.WaitGroup
	for n := 0; n < *workers; n++ {
		w := &worker{n: n, base: *base, origin: *origin, rpIDHash: sha256.Sum256([]byte(*rpID)), client: newClient(),
			rec: rec, mailOn: *mail, sequence: -1}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				if _, err := os.Stat(*stop); err == nil {
					return
				}
				w.step()
			}
		}()
	}
	wg.Wait()
	rec.mu.Lock()
	rec.requests.Flush()
	rec.acks.Flush()
	rec.mu.Unlock()
	check(requests.Close())
	check(acks.Close())
}

func readAcks(out string) []ack {
	f, err := os.Open(out + "/acks.jsonl")
	check(err)
	defer f.Close()
	var list []ack
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	for scanner.Scan() {
		var a ack
		if json.Unmarshal(scanner.Bytes(), &a) == nil { // a line being written is skipped
			list = append(list, a)
		}
	}
	return list
}

func export(args []string) {
	fs := flag.NewFlagSet("export", flag.ExitOnError)
	out := fs.String("out", "", "output folder")
	fs.Parse(args)
	files := map[string]*bufio.Writer{}
	for _, name := range []string{"accounts", "credentials", "mails"} {
		f, err := os.Create(*out + "/acked-" + name + ".txt")
		check(err)
		defer f.Close()
		files[name] = bufio.NewWriter(f)
		defer files[name].Flush()
	}
	counts := map[string]int{}
	for _, a := range readAcks(*out) {
		counts[a.Kind]++
		switch a.Kind {
		case "account":
			fmt.Fprintln(files["accounts"], a.AccountID)
		case "passkey":
			fmt.Fprintln(files["credentials"], a.Credential)
		case "mail":
			fmt.Fprintln(files["mails"], a.Email)
		}
	}
	fmt.Printf("accounts=%d passkeys=%d tokens=%d mails=%d\n", counts["account"], counts["passkey"], counts["token"], counts["mail"])
}

func tokens(args []string) {
	fs := flag.NewFlagSet("tokens", flag.ExitOnError)
	base := fs.String("url", "", "the balancer's URL")
	out := fs.String("out", "", "output folder")
	since := fs.Float64("since", 0, "only tokens acknowledged after this epoch")
	fs.Parse(args)
	var list []ack
	for _, a := range readAcks(*out) {
		if a.Kind == "token" && a.At >= *since {
			list = append(list, a)
		}
	}
	var mu sync.Mutex
	bad := []string{}
	jobs := make(chan ack)
	var wg sync.WaitGroup
	for n := 0; n < 4; n++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := newClient()
			for a := range jobs {
				var problem string
				for attempt := 0; attempt < 3; attempt++ {
					problem = accountCheck(client, *base, a)
					if problem == "" || !strings.HasPrefix(problem, "retry") {
						break
					}
					time.Sleep(time.Second)
				}
				if problem != "" {
					mu.Lock()
					bad = append(bad, problem)
					mu.Unlock()
				}
			}
		}()
	}
	for _, a := range list {
		jobs <- a
	}
	close(jobs)
	wg.Wait()
	fmt.Printf("tokens checked=%d failing=%d\n", len(list), len(bad))
	for i, b := range bad {
		if i == 5 {
			break
		}
		fmt.Println("  " + b)
	}
	if len(bad) > 0 {
		os.Exit(1)
	}
}

// accountCheck is "" when the token opens its own account; a problem starting with "retry" is
// worth asking again (the database was unavailable for a moment).
func accountCheck(client *http.Client, base string, a ack) string {
	req, _ := http.NewRequest("GET", base+"/v1/account", nil)
	req.Header.Set("Authorization", "Bearer "+a.Token)
	resp, err := client.Do(req)
	if err != nil {
		return "retry: " + err.Error()
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode == 503 {
		return "retry: 503"
	}
	var account struct {
		AccountID string `json:"accountID"`
	}
	if resp.StatusCode != 200 || json.Unmarshal(data, &account) != nil || account.AccountID != a.AccountID {
		return fmt.Sprintf("token of %s: GET /v1/account answered %d %s", a.AccountID, resp.StatusCode, string(data))
	}
	return ""
}

// phase is one line of the phases file: name, goal, the fault's time, the end of the phase,
// and for the "kill" goal the time HAProxy had to notice.
type phase struct {
	name, goal string
	fault, end float64
	limit      float64
}

func report(args []string) {
	fs := flag.NewFlagSet("report", flag.ExitOnError)
	out := fs.String("out", "", "output folder")
	phasesFile := fs.String("phases", "", "phases file")
	fs.Parse(args)
	data, err := os.ReadFile(*phasesFile)
	check(err)
	var phases []phase
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(line)
		if len(f) != 5 {
			continue
		}
		p := phase{name: f[0], goal: f[1]}
		p.fault, _ = strconv.ParseFloat(f[2], 64)
		p.end, _ = strconv.ParseFloat(f[3], 64)
		p.limit, _ = strconv.ParseFloat(f[4], 64)
		phases = append(phases, p)
	}
	f, err := os.Open(*out + "/requests.jsonl")
	check(err)
	var all []request
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	for scanner.Scan() {
		var q request
		if json.Unmarshal(scanner.Bytes(), &q) == nil {
			all = append(all, q)
		}
	}
	f.Close()
	sort.Slice(all, func(i, j int) bool { return all[i].Start < all[j].Start })
	missed := 0
	for _, p := range phases {
		var total, failed, unavailable, late, other int
		var lastFailure, slowestFailure, slowest float64
		codes := map[string]int{}
		for _, q := range all {
			if q.Start < p.fault || q.Start >= p.end {
				continue
			}
			total++
			latency := q.End - q.Start
			if latency > slowest {
				slowest = latency
			}
			if q.Status != 0 && q.Status < 400 {
				continue
			}
			failed++
			key := strconv.Itoa(q.Status) + " " + q.Code
			codes[key]++
			if q.Status == 503 && !strings.Contains(q.Code, "no Retry-After") && q.Code == "service-unavailable" {
				unavailable++
			} else {
				other++
			}
			if q.End-p.fault > lastFailure {
				lastFailure = q.End - p.fault
			}
			if latency > slowestFailure {
				slowestFailure = latency
			}
			if q.Start-p.fault >= p.limit {
				late++
			}
		}
		ok := true
		var goal string
		switch p.goal {
		case "zero-failures":
			goal = "0 failed requests"
			ok = failed == 0
		case "kill":
			goal = fmt.Sprintf("failures only in the %.0f s HAProxy takes to notice", p.limit)
			ok = late == 0
		case "recover":
			goal = fmt.Sprintf("only 503 service-unavailable with Retry-After, each answered in <= 10 s, service back in <= %.0f s", p.limit)
			ok = other == 0 && slowestFailure <= 10 && lastFailure <= p.limit
		}
		var kinds []string
		for k, v := range codes {
			kinds = append(kinds, fmt.Sprintf("%s ×%d", strings.TrimSpace(k), v))
		}
		sort.Strings(kinds)
		verdict := "PASS"
		if !ok {
			verdict = "FAIL"
			missed++
		}
		fmt.Printf("fleet: %-10s %s  requests=%d failed=%d (503=%d other=%d) last-failure=+%.1fs slowest=%.2fs  goal: %s  [%s]\n",
			p.name, verdict, total, failed, unavailable, other, lastFailure, slowest, goal, strings.Join(kinds, ", "))
	}
	if missed > 0 {
		os.Exit(1)
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "fleetload:", err)
		os.Exit(1)
	}
}
