package otlp_test

import (
	"testing"

	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/otlp"
)

func TestRead_damage(t *testing.T) { formattest.Breaks(t, otlp.JSON) }
