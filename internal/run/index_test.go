package run_test

import (
	"reflect"
	"testing"

	"github.com/trajeval/trajeval/internal/run"
)

// TestIndexBytes holds what a run keeps for each case a traces file
// supplies to IndexBytes, and to values the collector need not look into:
// it marks what the run holds at every collection, and a suite may list a
// million cases.
func TestIndexBytes(t *testing.T) {
	typ := run.EntryType
	for i := range typ.NumField() {
		if f := typ.Field(i); hasPointers(f.Type) {
			t.Errorf("an entry's field %s (%s) holds pointers: the collector marks each, for every case, at every collection", f.Name, f.Type)
		}
	}
	// Its slots in the index by id: 2 to 4 of 4 bytes (at most half full).
	if most := int(typ.Size()) + 16; most > run.IndexBytes {
		t.Errorf("an entry and its slots take up to %d bytes, IndexBytes says %d", most, run.IndexBytes)
	}
}

func hasPointers(typ reflect.Type) bool {
	switch typ.Kind() {
	case reflect.Pointer, reflect.String, reflect.Slice, reflect.Map, reflect.Chan, reflect.Func, reflect.Interface, reflect.UnsafePointer:
		return true
	case reflect.Array:
		return typ.Len() > 0 && hasPointers(typ.Elem())
	case reflect.Struct:
		for i := range typ.NumField() {
			if hasPointers(typ.Field(i).Type) {
				return true
			}
		}
	}
	return false
}
