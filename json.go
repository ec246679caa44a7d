package trajeval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// unmarshalExact decodes one JSON value into v keeping numbers exact
// (json.Number) and rejecting trailing data.
func unmarshalExact(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		return err
	}
	if _, err := d.Token(); err != io.EOF {
		return fmt.Errorf("unexpected data after the JSON value")
	}
	return nil
}
