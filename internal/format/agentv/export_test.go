package agentv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"time"
)

// FastAgrees reports whether the fast path read data as a record, and if
// it did, whether encoding/json reads the same record (else how they
// differ).
func FastAgrees(data []byte) (read bool, diff string) {
	fast, ok := fastDecode(&decoder{}, data)
	if !ok {
		return false, ""
	}
	var std record
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(&std); err != nil {
		return true, "encoding/json fails: " + err.Error()
	}
	if !reflect.DeepEqual(fast, std) {
		return true, fmt.Sprintf("fast %#v, encoding/json %#v", fast, std)
	}
	return true, ""
}

// FastTime reads the times ss in turn with one clock (see clock.parse).
func FastTime(ss ...string) (ts []time.Time, oks []bool) {
	var c clock
	for _, s := range ss {
		t, ok := c.parse(s)
		ts, oks = append(ts, t), append(oks, ok)
	}
	return ts, oks
}

// ParseFloat is parseFloat.
var ParseFloat = parseFloat
