package judge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/trajeval/trajeval"
)

// ErrBadAnswer says the judge answered twice with something that is not
// the JSON asked for, or with values out of range.
var ErrBadAnswer = errors.New("the judge's answer is not usable")

// A Judge asks one endpoint and model, through the run's cache.
type Judge struct {
	Client   *Client
	Cache    *Cache // nil: no caching
	Settings Settings
}

// Ask sends req and returns the judge's answer, a JSON object that check
// accepts (check reports values out of range, missing fields …).
//
// The rules:
//  1. A cached answer for the same request is returned without a call.
//  2. The answer is read tolerantly: code fences, text around the object
//     and a <think> section are skipped.
//  3. An answer that is not a JSON object, or that check refuses, is asked
//     for once more; a second bad answer is [ErrBadAnswer], never a score.
//  4. Valid answers are cached.
//  5. No string of the answer holds a part of the key (see package
//     secret), cached answers of older versions included: a judge may
//     quote the request's headers, escaped so as to pass a first look.
//
// The usage counts every request, those that failed too.
func (j *Judge) Ask(ctx context.Context, req Request, check func(map[string]any) error) (map[string]any, trajeval.JudgeUsage, error) {
	var total trajeval.JudgeUsage
	key := Key(j.Settings, req)
	if content, _, ok := j.Cache.Get(key); ok {
		if v, err := Parse(content); err == nil && check(j.scrub(v)) == nil {
			total.Cached = 1
			return v, total, nil
		}
	}
	var last error
	for try := 0; try < 2; try++ {
		rep, err := j.Client.Complete(ctx, req)
		total.Add(&rep.Usage)
		if err != nil && !errors.Is(err, errBadReply) {
			return nil, total, err
		}
		if err == nil {
			var v map[string]any
			if v, err = Parse(rep.Content); err == nil {
				if err = check(j.scrub(v)); err == nil {
					if j.Client != nil && j.Client.rt != nil {
						j.Client.rt.notePut(j.Cache.Put(key, j.Settings.Model, rep.Content, rep.Usage))
					}
					return v, total, nil
				}
			}
		}
		last = err
		if ctx.Err() != nil {
			return nil, total, ctx.Err()
		}
	}
	return nil, total, fmt.Errorf("%w (asked twice): %v", ErrBadAnswer, last)
}

// scrub removes the key from the strings of a parsed answer: its JSON
// may spell the key with escapes (\u0073k-…) that the scrubbing of the
// raw answer cannot see.
func (j *Judge) scrub(v map[string]any) map[string]any {
	if j.Client != nil {
		j.Client.scrub.Value(v)
	}
	return v
}

var thinkBlock = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<think>.*?</think>`) })

// Parse reads a JSON object from a model's answer, tolerating code fences,
// a <think> section and prose around the object.
func Parse(content string) (map[string]any, error) {
	s := strings.TrimSpace(thinkBlock().ReplaceAllString(content, ""))
	var v map[string]any
	if json.Unmarshal([]byte(s), &v) == nil && v != nil {
		return v, nil
	}
	if i, k := strings.Index(s, "{"), strings.LastIndex(s, "}"); i >= 0 && k > i {
		if json.Unmarshal([]byte(s[i:k+1]), &v) == nil && v != nil {
			return v, nil
		}
	}
	short := s
	if len(short) > 200 {
		short = short[:200] + "…"
	}
	return nil, fmt.Errorf("not a JSON object: %q", short)
}

// Number reads a number field: a JSON number or a numeric string.
func Number(v map[string]any, key string) (float64, error) {
	switch x := v[key].(type) {
	case float64:
		return x, nil
	case string:
		if f, err := strconv.ParseFloat(strings.TrimSpace(x), 64); err == nil {
			return f, nil
		}
	case nil:
		return 0, fmt.Errorf("no %q field", key)
	}
	return 0, fmt.Errorf("%q is not a number: %v", key, v[key])
}

// Score reads a number field that must lie in [lo, hi].
func Score(v map[string]any, key string, lo, hi float64) (float64, error) {
	f, err := Number(v, key)
	if err != nil {
		return 0, err
	}
	if f < lo || f > hi {
		return 0, fmt.Errorf("%q is %v, outside %v to %v", key, f, lo, hi)
	}
	return f, nil
}

// Bool reads a boolean field (true, false, or their text).
func Bool(v map[string]any, key string) (bool, error) {
	switch x := v[key].(type) {
	case bool:
		return x, nil
	case string:
		if b, err := strconv.ParseBool(strings.TrimSpace(x)); err == nil {
			return b, nil
		}
	}
	return false, fmt.Errorf("%q is not true or false: %v", key, v[key])
}

// Text reads a string field; a missing one is "".
func Text(v map[string]any, key string) string {
	s, _ := v[key].(string)
	return s
}

// List reads an array of objects.
func List(v map[string]any, key string) ([]map[string]any, error) {
	arr, ok := v[key].([]any)
	if !ok {
		return nil, fmt.Errorf("%q is not a list", key)
	}
	out := make([]map[string]any, len(arr))
	for i, x := range arr {
		m, ok := x.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s[%d] is not an object", key, i)
		}
		out[i] = m
	}
	return out, nil
}

// EachItem reads v[key], a list of objects with a 1-based "id", and calls
// fn with each one's 0-based index. Every id from 1 to n must appear
// exactly once.
func EachItem(v map[string]any, key string, n int, fn func(k int, item map[string]any) error) error {
	list, err := List(v, key)
	if err != nil {
		return err
	}
	seen := make([]bool, n)
	for _, it := range list {
		id, err := Number(it, "id")
		if err != nil {
			return err
		}
		k := int(id) - 1
		if k < 0 || k >= n || float64(k+1) != id || seen[k] {
			return fmt.Errorf("item id %v is unknown or repeated", id)
		}
		seen[k] = true
		if err := fn(k, it); err != nil {
			return fmt.Errorf("item %d: %w", k+1, err)
		}
	}
	for k, ok := range seen {
		if !ok {
			return fmt.Errorf("item %d has no answer", k+1)
		}
	}
	return nil
}
