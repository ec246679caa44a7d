package retryafter_test

import (
	"math"
	"net/http"
	"testing"
	"time"

	"github.com/trajeval/trajeval/internal/retryafter"
)

func TestParse(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name, value string
		want        time.Duration
		reason      string
	}{
		{"empty", "", 0, "no header asks for no wait"},
		{"seconds", "5", 5 * time.Second, "delay-seconds"},
		{"spaces", " 2 ", 2 * time.Second, "spaces around the value are not part of it"},
		{"fraction", "1.5", 1500 * time.Millisecond, "some servers send fractions"},
		{"negative", "-3", 0, "a negative delay is no wait"},
		{"huge", "1e30", time.Duration(math.MaxInt64), "too long a delay is the longest wait, not an overflow"},
		{"date", now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, "an HTTP date is the time until it"},
		{"past date", now.Add(-time.Hour).Format(http.TimeFormat), 0, "a date past is no wait"},
		{"garbage", "soon", 0, "anything else is no wait"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := retryafter.Parse(tt.value, now); got != tt.want {
				t.Errorf("Parse(%q) = %v, want %v: %s", tt.value, got, tt.want, tt.reason)
			}
		})
	}
}
