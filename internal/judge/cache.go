package judge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/trajeval/trajeval"
)

// A Cache keeps the judge's valid answers on disk, one file per answer,
// so that rerunning an unchanged suite asks nothing.
//
// The rules:
//  1. The key is a SHA-256 of the endpoint, the model, the parameters
//     (temperature, max_tokens, output mode), the answer's schema and
//     every message of the prompt; never the API key.
//  2. Only answers that passed their checks are stored.
//  3. An entry is written to a temporary file and renamed into place, so a
//     killed run never leaves a half-written entry; an entry that cannot
//     be read or decoded is a miss, and is replaced.
type Cache struct{ Dir string }

type entry struct {
	Model   string              `json:"model"`
	Content string              `json:"content"`
	Usage   trajeval.JudgeUsage `json:"usage"`
}

// Key returns the cache key of req sent with s.
func Key(s Settings, req Request) string {
	h := sha256.New()
	enc := json.NewEncoder(h)
	_ = enc.Encode(struct {
		V           int
		Endpoint    string
		Model       string
		Temperature *float64
		MaxTokens   int
		Output      string
		Schema      map[string]any
		Messages    []Message
	}{1, s.Endpoint(), s.Model, s.Temperature, s.MaxTokens, s.Output, req.Schema, req.Messages})
	return hex.EncodeToString(h.Sum(nil))
}

func (c *Cache) path(key string) string { return filepath.Join(c.Dir, key[:2], key+".json") }

// Get returns the stored answer for key.
func (c *Cache) Get(key string) (content string, usage trajeval.JudgeUsage, ok bool) {
	if c == nil {
		return "", usage, false
	}
	data, err := os.ReadFile(c.path(key))
	if err != nil {
		return "", usage, false
	}
	var e entry
	if json.Unmarshal(data, &e) != nil || e.Content == "" {
		return "", usage, false
	}
	return e.Content, e.Usage, true
}

// Put stores an answer atomically.
func (c *Cache) Put(key, model, content string, usage trajeval.JudgeUsage) error {
	if c == nil {
		return nil
	}
	p := c.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	data, err := json.Marshal(entry{Model: model, Content: content, Usage: usage})
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
