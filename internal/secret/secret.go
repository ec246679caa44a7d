// Package secret keeps the secrets trajeval is given (a judge's key, the
// header values of an exporter, the password of a URL) out of everything
// it writes, and away from hosts they were not meant for.
//
// A [Scrubber] is built once from the set of secrets, and applied where a
// peer's text enters trajeval: a judge's answer, an endpoint's error. It
// rewrites text so that:
//  1. no run of [Window] (8) or more bytes of any secret survives: each
//     8-byte window of each secret is a pattern, and every maximal run of
//     the text covered by such windows becomes [Marker], whether the run
//     is the whole secret, a part of it, or several secrets side by side;
//  2. a secret of 4 to 7 bytes is replaced where it appears whole; a
//     shorter one is left alone (it cannot be told from ordinary text);
//  3. a replaced run is widened to whole UTF-8 characters, so that valid
//     text stays valid;
//  4. the text is scanned once: the cost is linear in its length, however
//     many secrets there are.
//
// Text must be cut after it is scrubbed, never before: a cut can leave a
// prefix of a secret that no longer matches it whole.
//
// [KeepHost] is the redirect policy of every outbound client: credentials
// go only to the origin configured.
package secret

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"
)

// Window is the shortest run of a secret that a [Scrubber] removes.
const Window = 8

// Marker replaces what a [Scrubber] removes.
const Marker = "[secret]"

// minShort is the shortest secret replaced where it appears whole.
const minShort = 4

// A Scrubber removes a set of secrets from text. The nil Scrubber has no
// secrets and returns text as it is.
type Scrubber struct {
	windows map[uint64]struct{}
	// seen is a one-bit-per-bucket filter of windows, so that most
	// positions of the text cost a shift and a mask, not a map lookup.
	seen  [1 << 10]uint64
	short []string
}

// NewScrubber returns a Scrubber of secrets; empty ones are ignored. It
// returns nil when no secret is long enough to scrub.
func NewScrubber(secrets ...string) *Scrubber {
	s := &Scrubber{windows: map[uint64]struct{}{}}
	for _, v := range secrets {
		switch {
		case len(v) >= Window:
			for i := 0; i+Window <= len(v); i++ {
				w := le64(v, i)
				s.windows[w] = struct{}{}
				h := bucket(w)
				s.seen[h/64] |= 1 << (h % 64)
			}
		case len(v) >= minShort:
			s.short = append(s.short, v)
		}
	}
	if len(s.windows) == 0 && len(s.short) == 0 {
		return nil
	}
	return s
}

// le64 is the window of s at i as a number.
func le64(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// bucket spreads a window over the filter's 65,536 bits.
func bucket(w uint64) uint64 { return (w * 0x9E3779B97F4A7C15) >> 48 }

// String returns text with every secret removed (see the package rules).
func (s *Scrubber) String(text string) string {
	if s == nil {
		return text
	}
	for _, v := range s.short {
		text = replaceWhole(text, v)
	}
	if len(s.windows) == 0 || len(text) < Window {
		return text
	}
	var b strings.Builder
	done := 0          // text[:done] is written to b, or needs no change
	start, end := 0, 0 // the run being covered, empty when end == 0
	flush := func() {
		for start > 0 && !utf8.RuneStart(text[start]) {
			start--
		}
		for end < len(text) && !utf8.RuneStart(text[end]) {
			end++
		}
		if b.Len() == 0 {
			b.Grow(len(text))
		}
		b.WriteString(text[done:max(start, done)])
		b.WriteString(Marker)
		done = end
	}
	for i := 0; i+Window <= len(text); i++ {
		w := le64(text, i)
		if h := bucket(w); s.seen[h/64]&(1<<(h%64)) == 0 {
			continue
		}
		if _, ok := s.windows[w]; !ok {
			continue
		}
		if end > 0 && i <= end {
			end = i + Window
			continue
		}
		if end > 0 {
			flush()
		}
		start, end = i, i+Window
	}
	if end == 0 {
		return text
	}
	flush()
	b.WriteString(text[done:])
	return b.String()
}

// replaceWhole replaces every v in text with Marker, widened to whole
// characters: a secret whose edge splits a character takes the character,
// so that valid text stays valid.
func replaceWhole(text, v string) string {
	i := strings.Index(text, v)
	if i < 0 {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	done := 0
	for i >= 0 {
		start, end := i, i+len(v)
		for start > done && !utf8.RuneStart(text[start]) {
			start--
		}
		for end < len(text) && !utf8.RuneStart(text[end]) {
			end++
		}
		b.WriteString(text[done:start])
		b.WriteString(Marker)
		done = end
		if j := strings.Index(text[done:], v); j >= 0 {
			i = done + j
		} else {
			i = -1
		}
	}
	b.WriteString(text[done:])
	return b.String()
}

// Error returns err with its message scrubbed: err itself when the message
// holds no secret, else an error whose message is the scrubbed one and
// which unwraps to err, so that errors.Is and errors.As still classify it.
func (s *Scrubber) Error(err error) error {
	if err == nil || s == nil {
		return err
	}
	msg := err.Error()
	if clean := s.String(msg); clean != msg {
		return &scrubbed{msg: clean, err: err}
	}
	return err
}

type scrubbed struct {
	msg string
	err error
}

func (e *scrubbed) Error() string { return e.msg }
func (e *scrubbed) Unwrap() error { return e.err }

// Value returns v, a value decoded from JSON, with every string in it
// (map keys too) scrubbed. Maps and slices are changed in place.
func (s *Scrubber) Value(v any) any {
	if s == nil {
		return v
	}
	switch x := v.(type) {
	case string:
		return s.String(x)
	case []any:
		for i := range x {
			x[i] = s.Value(x[i])
		}
	case map[string]any:
		for k, e := range x {
			if c := s.String(k); c != k {
				delete(x, k)
				k = c
			}
			x[k] = s.Value(e)
		}
	}
	return v
}

// URLSecrets are the secrets a URL holds, for the scrubber: the password
// of its user information, which http clients send, and the value of each
// query parameter whose name says it is a credential (key, api_key,
// token, access_token, sig, secret, password, auth and the like), as
// Google's ?key= endpoints take it. net/http's errors quote the URL with
// its query as written: "Post \"https://host/v1?key=…\": connection
// refused". So a value is a secret both as written (escaped: a
// signature's %2B, a plus for a space) and unescaped, as it is sent; a
// value that does not unescape is sent as written all the same.
func URLSecrets(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	var out []string
	if u.User != nil {
		if p, ok := u.User.Password(); ok && p != "" {
			out = append(out, p)
		}
	}
	// Split at semicolons too, which servers may take as '&'.
	for _, pair := range strings.FieldsFunc(u.RawQuery, func(r rune) bool { return r == '&' || r == ';' }) {
		k, v, _ := strings.Cut(pair, "=")
		if name, err := url.QueryUnescape(k); err == nil {
			k = name
		}
		if v == "" || !credentialName(k) {
			continue
		}
		out = append(out, v)
		if sent, err := url.QueryUnescape(v); err == nil && sent != v && sent != "" {
			out = append(out, sent)
		}
	}
	return out
}

// credentialName reports whether a query parameter named k holds a
// credential. Other parameters (api-version=2024-02-01) are left alone:
// scrubbing them would scrub ordinary text that happens to hold them.
func credentialName(k string) bool {
	k = strings.ToLower(k)
	for _, w := range []string{"key", "token", "secret", "sig", "pass", "auth", "credential"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// Cut returns text cut to at most n bytes on a character boundary, with
// "…" when something was cut. Scrub first (see the package comment).
func Cut(text string, n int) string {
	if len(text) <= n {
		return text
	}
	for n > 0 && !utf8.RuneStart(text[n]) {
		n--
	}
	return text[:n] + "…"
}

// ErrOtherHost says a server redirected a request to another origin than
// the one configured; trajeval does not follow, so that no credential
// reaches a host it was not given for.
var ErrOtherHost = errors.New("redirected to another host")

// KeepHost is the CheckRedirect of every outbound client: a redirect is
// followed only to the origin of the first request (the same scheme, host
// and port, or from http to https on the same host's default ports), at
// most 10 times. Go's client drops Authorization on a redirect to another
// host but keeps other headers (Azure's api-key, x-api-key, any header a
// user configures), so a redirect elsewhere is refused outright.
func KeepHost(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	from, to := via[0].URL, req.URL
	if sameOrigin(from, to) {
		return nil
	}
	return fmt.Errorf("%w: %s sent the request on to %s, and trajeval sends credentials only where it is configured to; configure the address it redirects to instead",
		ErrOtherHost, origin(from), origin(to))
}

func sameOrigin(from, to *url.URL) bool {
	if !strings.EqualFold(from.Hostname(), to.Hostname()) {
		return false
	}
	fs, ts := strings.ToLower(from.Scheme), strings.ToLower(to.Scheme)
	fp, tp := port(from), port(to)
	if fs == ts {
		return fp == tp
	}
	return fs == "http" && ts == "https" && fp == "80" && tp == "443"
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}

// origin is scheme://host[:port] of u, without its path, query or user.
func origin(u *url.URL) string {
	return (&url.URL{Scheme: u.Scheme, Host: u.Host}).String()
}
