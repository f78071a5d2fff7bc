package main

// A minimal HTTP/1.1 keep-alive client, one connection per worker: the request is written
// and the response read on the worker's own goroutine, without net/http's per-connection
// reader/writer goroutines and channel hand-offs (which cost the generator CPU that the
// servers under test share on 2 cores). Content-Length and chunked bodies are handled; a
// "Connection: close" answer or any I/O error drops the connection and the next request
// opens a new one.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"time"
)

type conn struct {
	addr    string // host:port
	host    string // Host header
	timeout time.Duration
	c       net.Conn
	r       *bufio.Reader
	wbuf    []byte
}

func newConn(addr string, timeout time.Duration) *conn {
	return &conn{addr: addr, host: addr, timeout: timeout}
}

func (h *conn) close() {
	if h.c != nil {
		h.c.Close()
		h.c, h.r = nil, nil
	}
}

// post sends a POST with a JSON body and returns the status and the body.
func (h *conn) post(path string, body []byte) (int, []byte, error) {
	return h.postWith(path, "application/json", "", body)
}

// postWith sends a POST with the given content type and one extra header line
// ("Name: value", or "" for none).
func (h *conn) postWith(path, contentType, header string, body []byte) (int, []byte, error) {
	if h.c == nil {
		c, err := net.DialTimeout("tcp", h.addr, 5*time.Second)
		if err != nil {
			return 0, nil, err
		}
		if tc, ok := c.(*net.TCPConn); ok {
			tc.SetNoDelay(true)
		}
		h.c, h.r = c, bufio.NewReaderSize(c, 16384)
	}
	deadline := time.Now().Add(h.timeout)
	h.c.SetDeadline(deadline)
	w := h.wbuf[:0]
	w = append(w, "POST "...)
	w = append(w, path...)
	w = append(w, " HTTP/1.1\r\nHost: "...)
	w = append(w, h.host...)
	w = append(w, "\r\nContent-Type: "...)
	w = append(w, contentType...)
	if header != "" {
		w = append(w, "\r\n"...)
		w = append(w, header...)
	}
	w = append(w, "\r\nContent-Length: "...)
	w = strconv.AppendInt(w, int64(len(body)), 10)
	w = append(w, "\r\n\r\n"...)
	w = append(w, body...)
	h.wbuf = w
	if _, err := h.c.Write(w); err != nil {
		h.close()
		return 0, nil, err
	}
	status, resp, keep, err := h.readResponse()
	if err != nil || !keep {
		h.close()
	}
	return status, resp, err
}

var errMalformed = errors.New("malformed HTTP response")

func (h *conn) readResponse() (status int, body []byte, keepAlive bool, err error) {
	line, err := h.r.ReadSlice('\n')
	if err != nil {
		return 0, nil, false, err
	}
	// HTTP/1.1 200 OK
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
		return 0, nil, false, errMalformed
	}
	status, err = strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, nil, false, errMalformed
	}
	keepAlive = line[7] == '1'
	length, chunked := -1, false
	for i := 0; i < 200; i++ {
		line, err = h.r.ReadSlice('\n')
		if err != nil {
			return 0, nil, false, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			break
		}
		colon := bytes.IndexByte(line, ':')
		if colon < 0 {
			return 0, nil, false, errMalformed
		}
		name, value := line[:colon], bytes.TrimSpace(line[colon+1:])
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			length, err = strconv.Atoi(string(value))
			if err != nil || length < 0 || length > 1<<20 {
				return 0, nil, false, errMalformed
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.Contains(bytes.ToLower(value), []byte("chunked"))
		case bytes.EqualFold(name, []byte("Connection")):
			v := bytes.ToLower(value)
			if bytes.Contains(v, []byte("close")) {
				keepAlive = false
			} else if bytes.Contains(v, []byte("keep-alive")) {
				keepAlive = true
			}
		}
	}
	switch {
	case chunked:
		body, err = h.readChunked()
	case length >= 0:
		body = make([]byte, length)
		_, err = io.ReadFull(h.r, body)
	default:
		return status, nil, false, fmt.Errorf("response without length")
	}
	if err != nil {
		return 0, nil, false, err
	}
	return status, body, keepAlive, nil
}

func (h *conn) readChunked() ([]byte, error) {
	var body []byte
	for i := 0; i < 10_000; i++ {
		line, err := h.r.ReadSlice('\n')
		if err != nil {
			return nil, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if semi := bytes.IndexByte(line, ';'); semi >= 0 {
			line = line[:semi]
		}
		size, err := strconv.ParseInt(string(bytes.TrimSpace(line)), 16, 32)
		if err != nil || size < 0 || len(body)+int(size) > 1<<20 {
			return nil, errMalformed
		}
		if size == 0 {
			for j := 0; j < 100; j++ { // trailers, then the blank line
				t, err := h.r.ReadSlice('\n')
				if err != nil {
					return nil, err
				}
				if len(bytes.TrimRight(t, "\r\n")) == 0 {
					return body, nil
				}
			}
			return nil, errMalformed
		}
		start := len(body)
		body = append(body, make([]byte, size)...)
		if _, err := io.ReadFull(h.r, body[start:]); err != nil {
			return nil, err
		}
		if _, err := h.r.Discard(2); err != nil {
			return nil, err
		}
	}
	return nil, errMalformed
}
