// Command otlphostile sends hostile OTLP requests to a running trajeval
// serve, concurrently, over HTTP (protobuf, plain and gzip) and gRPC, and
// prints what the server answered and its peak memory (VmHWM of -pid,
// from /proc), against the limits it was started with.
//
//	trajeval serve policy.yaml --token T --max-bytes 64MiB &
//	go run ./bench/otlphostile -pid $! -token T -duration 30s
//
// The shapes, each just under the default --max-request-bytes of 16 MiB:
//   - deep: one attribute whose value is an array nested 1.4 million
//     levels (pdata's decoder recursed through it until the stack
//     overflowed);
//   - wide: one attribute holding an array of 7 million empty values;
//   - spans: 7 million empty spans (2 bytes of protobuf each, hundreds once
//     decoded);
//   - attrs: one span with 7 million empty attributes;
//   - held: 2,000 small real spans of distinct traces, which the server
//     takes and holds (run serve with a long --grace), until --max-bytes
//     refuses more;
//   - notoken: the spans shape without the token.
//
// A bench/ tool, not a test: nothing here passes or fails.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
)

func main() {
	httpURL := flag.String("http", "http://127.0.0.1:4318/v1/traces", "OTLP/HTTP traces URL")
	grpcAddr := flag.String("grpc", "127.0.0.1:4317", "OTLP/gRPC address")
	token := flag.String("token", "", "bearer token the server requires")
	pid := flag.Int("pid", 0, "the server's process id, for its peak memory")
	workers := flag.Int("concurrency", 8, "requests in flight")
	duration := flag.Duration("duration", 30*time.Second, "how long to send")
	skip := flag.String("skip", "", "shapes not to send, comma-separated")
	flag.Parse()

	shapes := []shape{
		{name: "deep", body: deep(1_400_000), token: true},
		{name: "wide", body: span(attr(field(2, field(5, bytes.Repeat([]byte{1<<3 | 2, 0}, 7_000_000))))), token: true},
		{name: "spans", body: request(bytes.Repeat([]byte{2<<3 | 2, 0}, 7_000_000)), token: true},
		{name: "attrs", body: span(bytes.Repeat([]byte{9<<3 | 2, 0}, 7_000_000)), token: true},
		{name: "held", body: held(2000), token: true},
		{name: "notoken", body: request(bytes.Repeat([]byte{2<<3 | 2, 0}, 7_000_000)), token: false},
	}
	shapes = slices.DeleteFunc(shapes, func(sh shape) bool { return slices.Contains(strings.Split(*skip, ","), sh.name) })
	for i := range shapes {
		shapes[i].gz = gzipped(shapes[i].body)
	}
	cc, err := grpc.NewClient(*grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallSendMsgSize(64<<20)))
	if err != nil {
		log.Fatal(err)
	}
	defer cc.Close()

	var mu sync.Mutex
	counts := map[string]int{}
	count := func(k string) { mu.Lock(); counts[k]++; mu.Unlock() }
	stop := time.Now().Add(*duration)
	var wg sync.WaitGroup
	for w := range *workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; time.Now().Before(stop); i++ {
				sh := shapes[i%len(shapes)]
				tok := ""
				if sh.token {
					tok = *token
				}
				switch (i / len(shapes)) % 3 {
				case 0:
					count(sh.name + " http " + post(*httpURL, sh.body, "", tok))
				case 1:
					count(sh.name + " http-gzip " + post(*httpURL, sh.gz, "gzip", tok))
				case 2:
					count(sh.name + " grpc " + export(cc, sh.body, tok))
				}
			}
		}()
	}
	wg.Wait()
	var keys []string
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("%-50s %d\n", k, counts[k])
	}
	for _, sh := range shapes {
		fmt.Printf("shape %-8s %9d bytes, %7d gzipped\n", sh.name, len(sh.body), len(sh.gz))
	}
	if *pid > 0 {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", *pid))
		if err != nil {
			log.Fatalf("the server is gone: %v", err)
		}
		for line := range strings.Lines(string(b)) {
			if strings.HasPrefix(line, "VmHWM") || strings.HasPrefix(line, "VmRSS") {
				fmt.Print("server ", line)
			}
		}
	}
}

type shape struct {
	name     string
	body, gz []byte
	token    bool
}

func field(num protowire.Number, parts ...[]byte) []byte {
	b := protowire.AppendTag(nil, num, protowire.BytesType)
	return protowire.AppendBytes(b, bytes.Join(parts, nil))
}

// request wraps span fields in a ResourceSpans and a ScopeSpans.
func request(spans []byte) []byte { return field(1, field(2, spans)) }

// span is a request of one span holding the given span fields.
func span(fields []byte) []byte {
	return request(field(2, field(1, bytes.Repeat([]byte{7}, 16)), field(2, bytes.Repeat([]byte{9}, 8)), fields))
}

func attr(value []byte) []byte { return field(9, field(1, []byte("k")), value) }

// deep is a request whose attribute nests arrays depth levels, written
// outside in from lengths worked out inside out.
func deep(depth int) []byte {
	lens := make([]int, 2*depth+1)
	for i := 1; i < len(lens); i++ {
		lens[i] = 1 + protowire.SizeVarint(uint64(lens[i-1])) + lens[i-1]
	}
	var v []byte
	for i := len(lens) - 1; i > 0; i-- {
		num := protowire.Number(1)
		if i%2 == 0 {
			num = 5
		}
		v = protowire.AppendTag(v, num, protowire.BytesType)
		v = protowire.AppendVarint(v, uint64(lens[i-1]))
	}
	return span(attr(field(2, v)))
}

// held is n root spans of distinct traces, each with a few real
// attributes.
func held(n int) []byte {
	var spans []byte
	for i := range n {
		id := fmt.Appendf(nil, "%016x", time.Now().UnixNano()+int64(i))
		spans = append(spans, field(2, field(1, id), field(2, id[:8]), field(5, []byte("invoke_agent support")),
			attr(field(2, field(1, []byte("gen_ai.agent.name")))),
			field(9, field(1, []byte("gen_ai.input.messages")), field(2, field(1, bytes.Repeat([]byte("x"), 400)))))...)
	}
	return request(spans)
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

func post(url string, body []byte, enc, token string) string {
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/x-protobuf")
	if enc != "" {
		req.Header.Set("Content-Encoding", enc)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "error"
	}
	resp.Body.Close()
	return fmt.Sprint(resp.StatusCode)
}

type rawCodec struct{}

func (rawCodec) Name() string { return "proto" }
func (rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	return mem.BufferSlice{mem.SliceBuffer(*v.(*[]byte))}, nil
}
func (rawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	*v.(*[]byte) = data.Materialize()
	return nil
}

func export(cc *grpc.ClientConn, body []byte, token string) string {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if token != "" {
		ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token)
	}
	var resp []byte
	err := cc.Invoke(ctx, "/opentelemetry.proto.collector.trace.v1.TraceService/Export", &body, &resp, grpc.ForceCodecV2(rawCodec{}))
	return status.Code(err).String()
}
