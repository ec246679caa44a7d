package sniff_test

import (
	"bytes"
	"encoding/json"
)

// refKeys is how Keys read a head before it had its own scanner: with
// encoding/json's Decoder. Keys must give the same keys on any bytes.
func refKeys(head []byte) []string {
	d := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(bytes.TrimSpace(head), []byte("\xef\xbb\xbf"))))
	d.UseNumber()
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return keys
		}
		k, ok := t.(string)
		if !ok {
			return keys
		}
		keys = append(keys, k)
		var skip json.RawMessage
		if err := d.Decode(&skip); err != nil {
			return keys
		}
	}
	return keys
}
