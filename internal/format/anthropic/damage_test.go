package anthropic_test

import (
	"testing"

	"github.com/trajeval/trajeval/internal/format/formattest"
)

func TestRead_damage(t *testing.T) { formattest.Breaks(t, formats...) }
