// Command loadgen drives passkey sign-in ceremonies against a server on 127.0.0.1 and
// measures them, and samples the CPU time and peak memory of the processes involved.
//
//	loadgen seed   -accounts N                    SQL (COPY) for N accounts, one ES256 passkey each
//	loadgen run    -url http://127.0.0.1:P ...    timed load, JSON result on -out: a closed loop of
//	                                              -concurrency ceremonies, or with -rate R an open
//	                                              loop of R arrivals/s (latency from each arrival's
//	                                              intended time: no coordinated omission); -flood F
//	                                              adds F closed-loop password sign-in workers
//	loadgen sample -watch name=pid,... ...         CPU/RSS sampling only (for the pgbench row)
//
// Accounts, credential IDs and private keys are derived from the account number k (1…N), so
// the seed and the load generator agree without sharing a key file:
//
//	account ID    = SHA-256("passkey-bench/account/k")[0:16] as a version-4 UUID
//	credential ID = k as 16 bytes big-endian (pgbench computes it the same way)
//	private key   = SHA-256("passkey-bench/key/k") mod (n-1) + 1 on P-256
//
// Only the Go standard library is used (no module downloads).
package main

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/big"
	"net/url"
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
		fmt.Fprintln(os.Stderr, "usage: loadgen seed|run|sample [flags]")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "seed":
		seed(os.Args[2:])
	case "run":
		run(os.Args[2:])
	case "sample":
		sample(os.Args[2:])
	default:
		fmt.Fprintln(os.Stderr, "usage: loadgen seed|run|sample [flags]")
		os.Exit(2)
	}
}

// ---------------------------------------------------------------------------------------------
// Deterministic accounts and keys.

type account struct {
	k          int
	id         [16]byte
	credential [16]byte
	key        *ecdsa.PrivateKey
	cose       []byte
}

func makeAccount(k int) account {
	var a account
	a.k = k
	h := sha256.Sum256([]byte("passkey-bench/account/" + strconv.Itoa(k)))
	copy(a.id[:], h[:16])
	a.id[6] = a.id[6]&0x0f | 0x40
	a.id[8] = a.id[8]&0x3f | 0x80
	binary.BigEndian.PutUint64(a.credential[8:], uint64(k))
	curve := elliptic.P256()
	n1 := new(big.Int).Sub(curve.Params().N, big.NewInt(1))
	kh := sha256.Sum256([]byte("passkey-bench/key/" + strconv.Itoa(k)))
	d := new(big.Int).Mod(new(big.Int).SetBytes(kh[:]), n1)
	d.Add(d, big.NewInt(1))
	x, y := curve.ScalarBaseMult(d.FillBytes(make([]byte, 32)))
	a.key = &ecdsa.PrivateKey{PublicKey: ecdsa.PublicKey{Curve: curve, X: x, Y: y}, D: d}
	// COSE_Key {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}
	c := []byte{0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20}
	c = append(c, x.FillBytes(make([]byte, 32))...)
	c = append(c, 0x22, 0x58, 0x20)
	c = append(c, y.FillBytes(make([]byte, 32))...)
	a.cose = c
	return a
}

func uuidString(b [16]byte) string {
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

func seed(args []string) {
	fs := flag.NewFlagSet("seed", flag.ExitOnError)
	n := fs.Int("accounts", 1024, "number of accounts")
	fs.Parse(args)
	if *n < 1 || *n > 1_000_000 {
		fmt.Fprintln(os.Stderr, "seed: -accounts must be 1…1000000")
		os.Exit(2)
	}
	w := &bytes.Buffer{}
	accounts := make([]account, *n)
	for i := range accounts {
		accounts[i] = makeAccount(i + 1)
	}
	fmt.Fprintln(w, "BEGIN;")
	fmt.Fprintln(w, "COPY accounts (id, display_name) FROM stdin;")
	for _, a := range accounts {
		fmt.Fprintf(w, "%s\tBench User %d\n", uuidString(a.id), a.k)
	}
	fmt.Fprintln(w, "\\.")
	fmt.Fprintln(w, "COPY account_emails (id, account_id, email, normalized_email) FROM stdin;")
	for _, a := range accounts {
		eid := a.id
		eid[0] ^= 0xff
		fmt.Fprintf(w, "%s\t%s\tbench%d@example.com\tbench%d@example.com\n", uuidString(eid), uuidString(a.id), a.k, a.k)
	}
	fmt.Fprintln(w, "\\.")
	fmt.Fprintln(w, "COPY passkey_credentials (credential_id, account_id, public_key, algorithm, sign_count, aaguid, "+
		"transports, backup_eligible, backup_state, attestation_format, attestation_type, resident_key, user_verified, name) FROM stdin;")
	for _, a := range accounts {
		fmt.Fprintf(w, "\\\\x%s\t%s\t\\\\x%s\t-7\t0\t00000000-0000-0000-0000-000000000000\t{internal,hybrid}\tf\tf\tnone\tnone\tt\tt\tBench passkey\n",
			hex.EncodeToString(a.credential[:]), uuidString(a.id), hex.EncodeToString(a.cose))
	}
	fmt.Fprintln(w, "\\.")
	fmt.Fprintln(w, "COMMIT;")
	os.Stdout.Write(w.Bytes())
}

// ---------------------------------------------------------------------------------------------
// The load.

type result struct {
	URL            string             `json:"url"`
	Concurrency    int                `json:"concurrency"`
	Accounts       int                `json:"accounts"`
	WarmupSeconds  float64            `json:"warmup_seconds"`
	WindowSeconds  float64            `json:"window_seconds"`
	WindowStart    float64            `json:"window_start_epoch"`
	WindowEnd      float64            `json:"window_end_epoch"`
	Ceremonies     int                `json:"ceremonies_ok"`
	Errors         int                `json:"errors"`
	ErrorKinds     map[string]int     `json:"error_kinds"`
	ErrorSamples   []string           `json:"error_samples"`
	TotalOK        int                `json:"total_ok_including_warmup"`
	TotalErrors    int                `json:"total_errors_including_warmup"`
	PerSecond      float64            `json:"ceremonies_per_second"`
	LatencyMs      map[string]float64 `json:"latency_ms"`
	StartLatencyMs map[string]float64 `json:"start_latency_ms"`
	CPU            *cpuReport         `json:"cpu"`
	// Open loop (-rate): arrivals per second asked for, and arrivals never started (overload).
	Rate      float64 `json:"open_loop_rate,omitempty"`
	NotServed int     `json:"open_loop_not_served,omitempty"`
	// Password flood (-flood): workers, answers per second in the window and their statuses.
	FloodWorkers   int            `json:"flood_workers,omitempty"`
	FloodPerSecond float64        `json:"flood_per_second,omitempty"`
	FloodStatuses  map[string]int `json:"flood_statuses,omitempty"`
}

type outcome struct {
	done    time.Time
	total   time.Duration
	start   time.Duration
	errKind string
	sample  string
}

type worker struct {
	http     *conn
	origin   string
	rpIDHash [32]byte
	accounts []account
	counters []uint32
	next     int
	out      []outcome
	// Token rows: the session of the worker's one sign-in, the JWT it introspects, the client's header.
	session string
	jwt     string
	basic   string
}

type startBody struct {
	ChallengeID string `json:"challengeID"`
	Challenge   string `json:"challenge"`
}

// prepareTokens signs the worker in with its first account and keeps what its token requests need.
func (w *worker) prepareTokens(mode, basic string) error {
	w.basic = basic
	var o outcome
	for attempt := 0; attempt < 3; attempt++ {
		if o = w.ceremony(); o.errKind == "" {
			break
		}
	}
	if o.errKind != "" {
		return fmt.Errorf("sign-in: %s %s", o.errKind, o.sample)
	}
	if w.session == "" {
		return errors.New("sign-in: no access token")
	}
	if mode == "introspect-jwt" {
		status, body, err := w.http.postWith("/v1/sessions/current/tokens", "application/json", "Authorization: Bearer "+w.session, nil)
		if err != nil || status != 201 {
			return fmt.Errorf("mint: %d %v %s", status, err, truncate(body))
		}
		var minted struct {
			Token string `json:"token"`
		}
		if err := json.Unmarshal(body, &minted); err != nil || minted.Token == "" {
			return fmt.Errorf("mint: %s", truncate(body))
		}
		w.jwt = minted.Token
	}
	return nil
}

// tokenRequest is one request of a token row: a mint, or one introspection.
func (w *worker) tokenRequest(mode string) outcome {
	t0 := time.Now()
	var status, want int
	var body []byte
	var err error
	switch mode {
	case "mint":
		want = 201
		status, body, err = w.http.postWith("/v1/sessions/current/tokens", "application/json", "Authorization: Bearer "+w.session, nil)
	default:
		token := w.session
		if mode == "introspect-jwt" {
			token = w.jwt
		}
		want = 200
		status, body, err = w.http.postWith("/v1/introspect", "application/x-www-form-urlencoded", w.basic,
			[]byte("token="+url.QueryEscape(token)))
	}
	done := time.Now()
	if err != nil {
		return outcome{done: done, errKind: mode + ":transport", sample: err.Error()}
	}
	if status != want {
		return outcome{done: done, errKind: mode + ":" + strconv.Itoa(status) + problemCode(body), sample: string(truncate(body))}
	}
	if mode != "mint" && !bytes.Contains(body, []byte(`"active":true`)) {
		return outcome{done: done, errKind: mode + ":inactive", sample: string(truncate(body))}
	}
	return outcome{done: done, total: done.Sub(t0), start: done.Sub(t0)}
}

func (w *worker) ceremony() outcome {
	t0 := time.Now()
	a := &w.accounts[w.next]
	w.counters[w.next]++
	counter := w.counters[w.next]
	w.next = (w.next + 1) % len(w.accounts)

	status, body, err := w.http.post("/v1/passkeys/authentications", nil)
	if err != nil {
		return outcome{done: time.Now(), errKind: "start:transport", sample: err.Error()}
	}
	if status != 200 {
		return outcome{done: time.Now(), errKind: "start:" + strconv.Itoa(status) + problemCode(body), sample: string(truncate(body))}
	}
	var sb startBody
	if err := json.Unmarshal(body, &sb); err != nil || sb.ChallengeID == "" || sb.Challenge == "" {
		return outcome{done: time.Now(), errKind: "start:badjson", sample: string(truncate(body))}
	}
	t1 := time.Now()

	clientData := []byte(`{"type":"webauthn.get","challenge":"` + sb.Challenge + `","origin":"` + w.origin + `","crossOrigin":false}`)
	authData := make([]byte, 37)
	copy(authData, w.rpIDHash[:])
	authData[32] = 0x05 // UP | UV
	binary.BigEndian.PutUint32(authData[33:], counter)
	cdHash := sha256.Sum256(clientData)
	signed := sha256.Sum256(append(append(make([]byte, 0, 69), authData...), cdHash[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, a.key, signed[:])
	if err != nil {
		return outcome{done: time.Now(), errKind: "sign", sample: err.Error()}
	}
	var fb strings.Builder
	fb.Grow(600)
	fb.WriteString(`{"challengeID":"`)
	fb.WriteString(sb.ChallengeID)
	fb.WriteString(`","credentialID":"`)
	fb.WriteString(b64.EncodeToString(a.credential[:]))
	fb.WriteString(`","clientDataJSON":"`)
	fb.WriteString(b64.EncodeToString(clientData))
	fb.WriteString(`","authenticatorData":"`)
	fb.WriteString(b64.EncodeToString(authData))
	fb.WriteString(`","signature":"`)
	fb.WriteString(b64.EncodeToString(sig))
	fb.WriteString(`","userHandle":"`)
	fb.WriteString(b64.EncodeToString(a.id[:]))
	fb.WriteString(`"}`)

	status, body, err = w.http.post("/v1/passkeys/authentications/finish", []byte(fb.String()))
	done := time.Now()
	if err != nil {
		return outcome{done: done, errKind: "finish:transport", sample: err.Error()}
	}
	if status != 200 {
		return outcome{done: done, errKind: "finish:" + strconv.Itoa(status) + problemCode(body),
			sample: "finish " + strconv.Itoa(status) + " " + string(truncate(body))}
	}
	if !bytes.Contains(body, []byte(`"accessToken"`)) || !bytes.Contains(body, []byte(uuidString(a.id))) {
		return outcome{done: done, errKind: "finish:badbody", sample: string(truncate(body))}
	}
	if w.session == "" && w.basic != "" {
		var session struct {
			AccessToken string `json:"accessToken"`
		}
		if json.Unmarshal(body, &session) == nil {
			w.session = session.AccessToken
		}
	}
	return outcome{done: done, total: done.Sub(t0), start: t1.Sub(t0)}
}

// floodWorker sends password sign-ins for emails nobody registered, closed loop: each costs the
// server a full password-hash verification (the dummy one, for comparable time) and a counted
// failure, which is what a credential-stuffing flood costs it.
type floodWorker struct {
	http *conn
	id   int
	n    int
	out  []floodOutcome
}

type floodOutcome struct {
	done   time.Time
	status string
}

func (f *floodWorker) signIn() floodOutcome {
	f.n++
	body := `{"email":"flood` + strconv.Itoa(f.id) + `.` + strconv.Itoa(f.n) + `@example.com","password":"not the password 1"}`
	status, resp, err := f.http.post("/v1/sessions", []byte(body))
	if err != nil {
		time.Sleep(10 * time.Millisecond)
		return floodOutcome{done: time.Now(), status: "transport"}
	}
	return floodOutcome{done: time.Now(), status: strconv.Itoa(status) + problemCode(resp)}
}

func problemCode(body []byte) string {
	var p struct {
		Code string `json:"code"`
	}
	if json.Unmarshal(body, &p) == nil && p.Code != "" {
		return ":" + p.Code
	}
	return ""
}

func truncate(b []byte) []byte {
	if len(b) > 300 {
		return b[:300]
	}
	return b
}

func run(args []string) {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	target := fs.String("url", "", "server base URL, e.g. http://127.0.0.1:18080 (loopback only)")
	n := fs.Int("accounts", 1024, "accounts seeded (1…N)")
	c := fs.Int("concurrency", 32, "concurrent ceremonies (closed loop)")
	warmup := fs.Duration("warmup", 3*time.Second, "warm-up, not measured")
	duration := fs.Duration("duration", 20*time.Second, "measured window")
	origin := fs.String("origin", "http://localhost:8080", "clientData origin")
	rpID := fs.String("rpid", "localhost", "RP ID")
	watch := fs.String("watch", "", "name=pid,… process trees whose CPU and peak RSS to report")
	out := fs.String("out", "", "JSON result file (default stdout)")
	rate := fs.Float64("rate", 0, "open loop: ceremonies started per second (0 = closed loop); -concurrency connections serve them")
	flood := fs.Int("flood", 0, "extra closed-loop workers sending wrong-password sign-ins for unknown emails")
	mode := fs.String("mode", "sign-in", "what each request of the loop is: sign-in (a passkey ceremony, two requests), "+
		"mint (POST /v1/sessions/current/tokens), introspect-opaque or introspect-jwt (POST /v1/introspect); "+
		"the token modes sign each worker in once first")
	clientAuth := fs.String("introspection-client", "", "id:secret of an INTROSPECTION_CLIENTS entry (introspect modes)")
	fs.Parse(args)
	switch *mode {
	case "sign-in", "mint", "introspect-opaque", "introspect-jwt":
	default:
		fmt.Fprintln(os.Stderr, "run: -mode is sign-in, mint, introspect-opaque or introspect-jwt")
		os.Exit(2)
	}

	u, err := url.Parse(*target)
	if err != nil || u.Scheme != "http" || u.Hostname() != "127.0.0.1" {
		fmt.Fprintln(os.Stderr, "run: -url must be http://127.0.0.1:PORT")
		os.Exit(2)
	}
	if *c < 1 || *c > 1024 || *n < *c || *duration <= 0 || *duration > 10*time.Minute || *warmup > time.Minute ||
		*rate < 0 || *rate > 100000 || *flood < 0 || *flood > 256 {
		fmt.Fprintln(os.Stderr, "run: need 1 ≤ concurrency ≤ 1024, accounts ≥ concurrency, 0 < duration ≤ 10m, warmup ≤ 1m, 0 ≤ rate ≤ 100000, 0 ≤ flood ≤ 256")
		os.Exit(2)
	}
	groups := parseWatch(*watch)

	rpHash := sha256.Sum256([]byte(*rpID))
	workers := make([]*worker, *c)
	for i := range workers {
		w := &worker{http: newConn(u.Host, 10*time.Second), origin: *origin, rpIDHash: rpHash}
		for k := i + 1; k <= *n; k += *c {
			w.accounts = append(w.accounts, makeAccount(k))
		}
		w.counters = make([]uint32, len(w.accounts))
		w.out = make([]outcome, 0, 65536)
		workers[i] = w
	}

	begin := time.Now()
	windowStart := begin.Add(*warmup)
	windowEnd := windowStart.Add(*duration)
	var before, after cpuSnapshot
	var sampled sync.WaitGroup
	sampled.Add(1)
	go func() {
		defer sampled.Done()
		time.Sleep(time.Until(windowStart))
		before = takeSnapshot(groups)
		time.Sleep(time.Until(windowEnd))
		after = takeSnapshot(groups)
	}()

	var wg sync.WaitGroup
	floods := make([]*floodWorker, *flood)
	for i := range floods {
		f := &floodWorker{http: newConn(u.Host, 10*time.Second), id: i}
		floods[i] = f
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer f.http.close()
			for i := 0; i < 10_000_000 && time.Now().Before(windowEnd); i++ {
				f.out = append(f.out, f.signIn())
			}
		}()
	}
	if *mode != "sign-in" {
		// Token rows: each worker signs in once (and mints the JWT it will introspect), before the
		// warm-up ends; then every request of the loop is one token request.
		basic := "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(*clientAuth))
		for _, w := range workers {
			if err := w.prepareTokens(*mode, basic); err != nil {
				fmt.Fprintln(os.Stderr, "run: preparing the token row:", err)
				os.Exit(1)
			}
		}
	}
	if *rate == 0 {
		for _, w := range workers {
			wg.Add(1)
			go func(w *worker) {
				defer wg.Done()
				defer w.http.close()
				for i := 0; i < 10_000_000 && time.Now().Before(windowEnd); i++ {
					if *mode == "sign-in" {
						w.out = append(w.out, w.ceremony())
					} else {
						w.out = append(w.out, w.tokenRequest(*mode))
					}
				}
			}(w)
		}
	}
	notServed := 0
	if *rate > 0 {
		// Open loop: arrivals on a fixed schedule, whatever the server's pace; an arrival waits
		// for a free connection, and that wait is part of its latency (measured from when it
		// was due), so a slow server cannot hide its queue.
		arrivals := make(chan time.Time, int(*rate*(warmup.Seconds()+duration.Seconds()))+16)
		go func() {
			interval := time.Duration(float64(time.Second) / *rate)
			next := begin
			for next.Before(windowEnd) {
				for now := time.Now(); !next.After(now) && next.Before(windowEnd); next = next.Add(interval) {
					arrivals <- next
				}
				time.Sleep(time.Until(next))
			}
			close(arrivals)
		}()
		stopBy := windowEnd.Add(5 * time.Second)
		var mu sync.Mutex
		for _, w := range workers {
			wg.Add(1)
			go func(w *worker) {
				defer wg.Done()
				defer w.http.close()
				for due := range arrivals {
					if time.Now().After(stopBy) {
						mu.Lock()
						notServed++
						mu.Unlock()
						continue
					}
					o := w.ceremony()
					if o.errKind == "" {
						o.total = o.done.Sub(due)
					}
					w.out = append(w.out, o)
				}
			}(w)
		}
	}
	wg.Wait()
	sampled.Wait()

	res := result{
		URL: *target, Concurrency: *c, Accounts: *n, WarmupSeconds: warmup.Seconds(),
		WindowSeconds: duration.Seconds(), WindowStart: epoch(windowStart), WindowEnd: epoch(windowEnd),
		ErrorKinds: map[string]int{}, ErrorSamples: []string{},
	}
	var lat, startLat []time.Duration
	for _, w := range workers {
		for _, o := range w.out {
			in := !o.done.Before(windowStart) && !o.done.After(windowEnd)
			if o.errKind != "" {
				res.TotalErrors++
				if in {
					res.Errors++
					res.ErrorKinds[o.errKind]++
				}
				if len(res.ErrorSamples) < 5 {
					res.ErrorSamples = append(res.ErrorSamples, o.errKind+": "+o.sample)
				}
				continue
			}
			res.TotalOK++
			if in {
				res.Ceremonies++
				lat = append(lat, o.total)
				startLat = append(startLat, o.start)
			}
		}
	}
	res.PerSecond = float64(res.Ceremonies) / duration.Seconds()
	res.Rate, res.NotServed = *rate, notServed
	if *flood > 0 {
		res.FloodWorkers, res.FloodStatuses = *flood, map[string]int{}
		answered := 0
		for _, f := range floods {
			for _, o := range f.out {
				if !o.done.Before(windowStart) && !o.done.After(windowEnd) {
					res.FloodStatuses[o.status]++
					answered++
				}
			}
		}
		res.FloodPerSecond = float64(answered) / duration.Seconds()
	}
	res.LatencyMs = percentiles(lat)
	res.StartLatencyMs = percentiles(startLat)
	res.CPU = report(before, after, groups)
	writeJSON(*out, res)
}

func epoch(t time.Time) float64 { return float64(t.UnixNano()) / 1e9 }

func percentiles(d []time.Duration) map[string]float64 {
	m := map[string]float64{}
	if len(d) == 0 {
		return m
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	var sum time.Duration
	for _, x := range d {
		sum += x
	}
	at := func(p float64) float64 {
		i := int(p * float64(len(d)-1))
		return float64(d[i].Microseconds()) / 1000
	}
	m["p50"], m["p90"], m["p99"], m["max"] = at(0.50), at(0.90), at(0.99), at(1)
	m["mean"] = float64(sum.Microseconds()) / 1000 / float64(len(d))
	return m
}

func writeJSON(path string, v any) {
	b, _ := json.MarshalIndent(v, "", "  ")
	b = append(b, '\n')
	if path == "" {
		os.Stdout.Write(b)
		return
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// ---------------------------------------------------------------------------------------------
// CPU time and peak memory from /proc.

const clockTicks = 100 // USER_HZ on Linux x86-64

type group struct {
	name string
	root int
}

type cpuSnapshot struct {
	at      time.Time
	ticks   map[int]uint64 // pid → utime+stime of every process in every group, plus self
	member  map[int]string // pid → group
	busy    uint64         // machine-wide, from /proc/stat: user+nice+system+irq+softirq+steal
	irq     uint64         // irq+softirq
	steal   uint64
	total   uint64
	selfCPU uint64
}

type procMemory struct {
	PID   int    `json:"pid"`
	Comm  string `json:"comm"`
	HWMkB int    `json:"vm_hwm_kb"`
	RSSkB int    `json:"vm_rss_kb"`
}

type groupReport struct {
	CPUSeconds  float64      `json:"cpu_seconds"`
	Cores       float64      `json:"cores"`
	Processes   int          `json:"processes"`
	PeakRSSkB   int          `json:"peak_rss_kb_sum"`
	PeakRSSMax  int          `json:"peak_rss_kb_max"`
	PerProcess  []procMemory `json:"per_process"`
	Description string       `json:"description,omitempty"`
}

type cpuReport struct {
	WallSeconds   float64                 `json:"wall_seconds"`
	Groups        map[string]*groupReport `json:"groups"`
	LoadgenCores  float64                 `json:"loadgen_cores"`
	MachineBusy   float64                 `json:"machine_busy_cores"`
	OtherCores    float64                 `json:"other_cores"`
	IRQCores      float64                 `json:"irq_softirq_cores"`
	StealCores    float64                 `json:"steal_cores"`
	MachineCores  int                     `json:"machine_cores"`
	LoadAverage1m string                  `json:"load_average"`
}

func parseWatch(s string) []group {
	var gs []group
	for _, part := range strings.Split(s, ",") {
		if part == "" {
			continue
		}
		kv := strings.SplitN(part, "=", 2)
		pid, err := strconv.Atoi(strings.TrimSpace(kv[len(kv)-1]))
		if len(kv) != 2 || err != nil || pid <= 1 {
			fmt.Fprintf(os.Stderr, "bad -watch entry %q (want name=pid)\n", part)
			os.Exit(2)
		}
		gs = append(gs, group{name: strings.TrimSpace(kv[0]), root: pid})
	}
	return gs
}

// procStat returns ppid, comm and utime+stime of a process.
func procStat(pid int) (int, string, uint64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, "", 0, false
	}
	s := string(b)
	open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || close < open {
		return 0, "", 0, false
	}
	f := strings.Fields(s[close+1:])
	if len(f) < 13 {
		return 0, "", 0, false
	}
	ppid, _ := strconv.Atoi(f[1])
	ut, _ := strconv.ParseUint(f[11], 10, 64)
	st, _ := strconv.ParseUint(f[12], 10, 64)
	return ppid, s[open+1 : close], ut + st, true
}

func allPIDs() []int {
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

func machine() (busy, irq, steal, total uint64) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0, 0, 0
	}
	line := strings.SplitN(string(b), "\n", 2)[0]
	f := strings.Fields(line)
	for i, x := range f[1:] {
		v, _ := strconv.ParseUint(x, 10, 64)
		if i >= 8 { // guest time is already counted in user
			break
		}
		total += v
		if i != 3 && i != 4 { // idle, iowait
			busy += v
		}
		if i == 5 || i == 6 {
			irq += v
		}
		if i == 7 {
			steal += v
		}
	}
	return busy, irq, steal, total
}

func takeSnapshot(groups []group) cpuSnapshot {
	snap := cpuSnapshot{at: time.Now(), ticks: map[int]uint64{}, member: map[int]string{}}
	children := map[int][]int{}
	for _, pid := range allPIDs() {
		if ppid, _, _, ok := procStat(pid); ok {
			children[ppid] = append(children[ppid], pid)
		}
	}
	for _, g := range groups {
		stack := []int{g.root}
		for len(stack) > 0 && len(stack) < 100_000 {
			pid := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if _, seen := snap.member[pid]; seen {
				continue
			}
			if _, _, t, ok := procStat(pid); ok {
				snap.member[pid] = g.name
				snap.ticks[pid] = t
			}
			stack = append(stack, children[pid]...)
		}
	}
	_, _, snap.selfCPU, _ = procStat(os.Getpid())
	snap.busy, snap.irq, snap.steal, snap.total = machine()
	return snap
}

func memory(pid int) (hwm, rss int) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "VmHWM:" {
			hwm, _ = strconv.Atoi(f[1])
		}
		if len(f) >= 2 && f[0] == "VmRSS:" {
			rss, _ = strconv.Atoi(f[1])
		}
	}
	return hwm, rss
}

func report(before, after cpuSnapshot, groups []group) *cpuReport {
	wall := after.at.Sub(before.at).Seconds()
	r := &cpuReport{WallSeconds: wall, Groups: map[string]*groupReport{}, MachineCores: 0}
	if wall <= 0 {
		return r
	}
	for _, g := range groups {
		r.Groups[g.name] = &groupReport{PerProcess: []procMemory{}}
	}
	var ours float64
	for pid, name := range after.member {
		g := r.Groups[name]
		t0, existed := before.ticks[pid]
		if !existed {
			t0 = 0 // started inside the window: all its time is in the window
		}
		d := float64(after.ticks[pid]-t0) / clockTicks
		g.CPUSeconds += d
		ours += d
		g.Processes++
		_, comm, _, _ := procStat(pid)
		hwm, rss := memory(pid)
		g.PeakRSSkB += hwm
		if hwm > g.PeakRSSMax {
			g.PeakRSSMax = hwm
		}
		g.PerProcess = append(g.PerProcess, procMemory{PID: pid, Comm: comm, HWMkB: hwm, RSSkB: rss})
	}
	for _, g := range r.Groups {
		g.Cores = g.CPUSeconds / wall
		sort.Slice(g.PerProcess, func(i, j int) bool { return g.PerProcess[i].PID < g.PerProcess[j].PID })
	}
	self := float64(after.selfCPU-before.selfCPU) / clockTicks
	r.LoadgenCores = self / wall
	ours += self
	if after.total > before.total {
		// /proc/stat counts all CPUs; ticks are USER_HZ per CPU.
		busy := float64(after.busy-before.busy) / clockTicks
		r.MachineBusy = busy / wall
		irq := float64(after.irq-before.irq) / clockTicks
		steal := float64(after.steal-before.steal) / clockTicks
		r.IRQCores, r.StealCores = irq/wall, steal/wall
		// Other processes: everything busy that is not ours, not interrupts, not stolen by the host.
		r.OtherCores = (busy - irq - steal - ours) / wall
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		r.LoadAverage1m = strings.TrimSpace(string(b))
	}
	r.MachineCores = cpuCount()
	return r
}

func cpuCount() int {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "cpu") && len(line) > 3 && line[3] >= '0' && line[3] <= '9' {
			n++
		}
	}
	return n
}

// sample: CPU and memory of process trees over a window, for loads this program does not drive.
func sample(args []string) {
	fs := flag.NewFlagSet("sample", flag.ExitOnError)
	warmup := fs.Duration("warmup", 3*time.Second, "wait before the window")
	duration := fs.Duration("duration", 20*time.Second, "window")
	watch := fs.String("watch", "", "name=pid,…")
	out := fs.String("out", "", "JSON file (default stdout)")
	fs.Parse(args)
	if *duration <= 0 || *duration > 10*time.Minute || *warmup > time.Minute {
		fmt.Fprintln(os.Stderr, "sample: 0 < duration ≤ 10m, warmup ≤ 1m")
		os.Exit(2)
	}
	groups := parseWatch(*watch)
	time.Sleep(*warmup)
	before := takeSnapshot(groups)
	time.Sleep(*duration)
	after := takeSnapshot(groups)
	writeJSON(*out, map[string]any{
		"window_start_epoch": epoch(before.at), "window_end_epoch": epoch(after.at),
		"cpu": report(before, after, groups),
	})
}
