package msglog_test

import (
	"bytes"
	"encoding/json"

	"github.com/trajeval/trajeval/internal/format/msglog"
)

// refFacts is how SniffFacts read a head before it had its own scanner:
// with encoding/json's Decoder.Token. SniffFacts must give the same facts
// on any bytes.
func refFacts(head []byte) msglog.Facts {
	f := msglog.Facts{}
	if len(head) > 256<<10 {
		head = head[:256<<10] // enough for the first records, and cheap
	}
	d := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(bytes.TrimSpace(head), []byte("\xef\xbb\xbf"))))
	d.UseNumber()
	type frame struct {
		isObj   bool
		key     string // the key whose value this container is
		cur     string // the current key inside an object
		haveKey bool
	}
	var stack []frame
	parent := func() string {
		for i := len(stack) - 1; i >= 0; i-- {
			if stack[i].key != "" {
				return stack[i].key
			}
		}
		return ""
	}
	atRecord := func() bool {
		// the object directly holding the key is a record
		return len(stack) == 1 || (len(stack) == 2 && !stack[0].isObj)
	}
	for n := 0; n < 100000; n++ {
		tok, err := d.Token()
		if err != nil {
			break
		}
		if len(stack) > 0 && stack[len(stack)-1].isObj && !stack[len(stack)-1].haveKey {
			if k, ok := tok.(string); ok {
				top := &stack[len(stack)-1]
				top.cur, top.haveKey = k, true
				if p := parent(); len(p) <= 64 {
					f[p+">"+k] = true
				}
				f["*"+k] = true
				if atRecord() {
					f["^"+k] = true
				}
				continue
			}
		}
		var key string
		if len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.isObj {
				key = top.cur
				top.haveKey = false
			}
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				// elements of an array inherit its key through parent()
				stack = append(stack, frame{isObj: t == '{', key: key})
			default:
				if len(stack) > 0 {
					stack = stack[:len(stack)-1]
				}
			}
		case string:
			if key != "" && len(t) <= 64 {
				if p := parent(); len(p) <= 64 {
					f[p+">"+key+"="+t] = true
				}
				f["*"+key+"="+t] = true
				if atRecord() {
					f["^"+key+"="+t] = true
				}
			}
		}
	}
	return f
}
