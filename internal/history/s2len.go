package history

// s2Written returns the bytes the operations of an S2 block (the block
// past its length) write when decoded, read from their tags alone,
// without the memory they write: false when an operation is cut off, or
// the bytes pass limit. A block whose operations write other than the
// length it starts with does not decode: checked first, a damaged length
// of a gigabyte in a few bytes is refused before it is allocated.
//
// The tags are those of s2's decoder (decode_other.go): a literal (its
// length in the tag or in 1 to 4 bytes after it, then its bytes); a copy
// with a 1-byte offset, or a repeat of the last offset when that offset
// is 0 (its length in the tag, or in 1 to 3 bytes after it); a copy with
// a 2-byte or a 4-byte offset (its length in the tag). The offsets are
// left to the decoder.
func s2Written(src []byte, limit int) (int, bool) {
	d, s := 0, 0
	for s < len(src) {
		tag := src[s]
		var n int
		switch tag & 3 {
		case 0: // a literal
			n = int(tag >> 2)
			s++
			if n >= 60 {
				k := n - 59 // the bytes of its length, little-endian
				if k > len(src)-s {
					return 0, false
				}
				n = 0
				for i := k - 1; i >= 0; i-- {
					n = n<<8 | int(src[s+i])
				}
				s += k
			}
			n++
			if n > len(src)-s {
				return 0, false
			}
			s += n
		case 1: // a copy with a 1-byte offset, or a repeat
			if len(src)-s < 2 {
				return 0, false
			}
			n = int(tag >> 2 & 7)
			repeat := int(tag&0xe0)<<3|int(src[s+1]) == 0
			s += 2
			if repeat && n >= 5 {
				k := n - 4 // the bytes of its length, little-endian
				if k > len(src)-s {
					return 0, false
				}
				v := 0
				for i := k - 1; i >= 0; i-- {
					v = v<<8 | int(src[s+i])
				}
				s += k
				n = v + [...]int{4, 1 << 8, 1 << 16}[k-1]
			}
			n += 4
		case 2: // a copy with a 2-byte offset
			if len(src)-s < 3 {
				return 0, false
			}
			n = 1 + int(tag>>2)
			s += 3
		case 3: // a copy with a 4-byte offset
			if len(src)-s < 5 {
				return 0, false
			}
			n = 1 + int(tag>>2)
			s += 5
		}
		if d += n; d > limit {
			return 0, false
		}
	}
	return d, true
}
