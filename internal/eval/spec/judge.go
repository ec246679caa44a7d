package spec

import (
	"net/url"
	"time"

	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/judge"
)

// JudgeBlocks reads judge: blocks (base_url, model, api_key_env, …; see
// judge.Keys), in order, skipping nil ones, for judge.Resolve. A mistake
// in a block is a configuration error placed at its key; the first one
// found is returned.
func JudgeBlocks(nodes ...*config.Node) ([]judge.Block, error) {
	var out []judge.Block
	for _, n := range nodes {
		if n == nil {
			continue
		}
		b, err := judgeBlock(n)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// judgeBlock reads one judge: block.
func judgeBlock(b *config.Node) (judge.Block, error) {
	var out judge.Block
	if b.Kind != config.Map {
		return out, b.Errorf("judge must be a map (base_url, model, api_key_env, …), got %s", b.Kind)
	}
	if err := b.Check(judge.Keys...); err != nil {
		return out, err
	}
	var err error
	str := func(key string) *string {
		v := b.Get(key)
		if v == nil || err != nil {
			return nil
		}
		var s string
		if s, err = v.Str(); err != nil {
			return nil
		}
		return &s
	}
	out.BaseURL = str("base_url")
	out.Model = str("model")
	out.APIVersion = str("api_version")
	out.APIKeyEnv = str("api_key_env")
	if err != nil {
		return out, err
	}
	if v := b.Get("base_url"); v != nil {
		if u, perr := url.Parse(*out.BaseURL); perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return out, v.Errorf("base_url %q is not an http(s) URL", *out.BaseURL).With("e.g. http://localhost:11434/v1")
		}
	}
	if v := b.Get("temperature"); v != nil {
		if v.Kind == config.Null {
			out.NoTemperature = true
		} else {
			f, err := v.NonNegative()
			if err != nil {
				return out, err
			}
			out.Temperature = &f
		}
	}
	intKey := func(key string) *int {
		v := b.Get(key)
		if v == nil || err != nil {
			return nil
		}
		var i int64
		if i, err = v.Int(); err == nil && i < 0 {
			err = v.Errorf("%s must not be negative", key)
		}
		n := int(i)
		return &n
	}
	out.MaxTokens = intKey("max_tokens")
	out.MaxRetries = intKey("max_retries")
	if err != nil {
		return out, err
	}
	if v := b.Get("timeout"); v != nil {
		d, err := duration(v)
		if err != nil {
			return out, err
		}
		out.Timeout = &d
	}
	if v := b.Get("requests_per_minute"); v != nil {
		f, err := v.NonNegative()
		if err != nil {
			return out, err
		}
		out.RequestsPerMinute = &f
	}
	if v := b.Get("output"); v != nil {
		o, err := v.Enum(judge.OutputAuto, judge.OutputJSONSchema, judge.OutputJSONObject, judge.OutputText)
		if err != nil {
			return out, err
		}
		out.Output = &o
	}
	if v := b.Get("price"); v != nil {
		if err := v.Check("input", "output"); err != nil {
			return out, err
		}
		for _, k := range []struct {
			key string
			dst **float64
		}{{"input", &out.PriceInput}, {"output", &out.PriceOutput}} {
			if p := v.Get(k.key); p != nil {
				f, err := p.NonNegative()
				if err != nil {
					return out, err
				}
				*k.dst = &f
			}
		}
	}
	return out, nil
}

// duration reads seconds (a number) or a Go duration ("30s", "2m").
func duration(v *config.Node) (time.Duration, error) {
	if v.Kind == config.Number {
		f, err := v.NonNegative()
		return time.Duration(f * float64(time.Second)), err
	}
	s, err := v.Str()
	if err != nil {
		return 0, err
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, v.Errorf("timeout %q is not a duration", s).With(`give seconds (30) or a duration ("30s", "2m")`)
	}
	return d, nil
}
