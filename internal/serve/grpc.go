package serve

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	_ "google.golang.org/grpc/encoding/gzip"  // clients may compress with gzip
	_ "google.golang.org/grpc/encoding/proto" // the codec of other messages
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/stats"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/tap"
	"google.golang.org/protobuf/types/known/durationpb"
)

// GRPCServer returns a gRPC server with the OTLP TraceService, which
// takes spans as the HTTP /v1/traces does: with a token, the
// "authorization" metadata must be "Bearer TOKEN" (else UNAUTHENTICATED,
// before the message is read); a message over Config.MaxRequestBytes is
// refused (RESOURCE_EXHAUSTED), as is one whose decoding would take more
// memory than Config.MaxBytes, or that finds the queue, the span budget or
// the byte budget full (RESOURCE_EXHAUSTED, with a RetryInfo of one
// second), or the backlog of rows that could not be written full
// (UNAVAILABLE, with a RetryInfo of five seconds); one that is not OTLP,
// or nests attribute values too deep, is INVALID_ARGUMENT.
//
// The message is kept as bytes by the server's codec and decoded by the
// handler, not by gRPC, so that nothing is decoded before the token and
// the budget are checked and the nesting scanned: pdata's decoder
// recurses once per level of nesting.
func (s *Server) GRPCServer() *grpc.Server {
	g := grpc.NewServer(
		grpc.MaxRecvMsgSize(int(min(s.cfg.MaxRequestBytes, 1<<31-1))),
		grpc.ConnectionTimeout(10*time.Second),
		grpc.KeepaliveParams(keepalive.ServerParameters{MaxConnectionIdle: 5 * time.Minute}),
		grpc.ForceServerCodecV2(rawCodec{}),
		// Fixed windows (which turn off gRPC's growing them to the
		// bandwidth-delay product): what a connection buffers before a
		// handler asks for it stays small and known.
		grpc.InitialWindowSize(1<<20),
		grpc.InitialConnWindowSize(1<<20),
		grpc.StatsHandler(compression{}),
		// The token is checked from the headers, before the stream
		// exists and its message is read.
		grpc.InTapHandle(func(ctx context.Context, info *tap.Info) (context.Context, error) {
			if err := s.grpcAuth(info.Header); err != nil {
				return nil, err
			}
			// The stream's context, which its reading waits on: a
			// message not received by the deadline ends the request
			// (DEADLINE_EXCEEDED) and what it was charged is released.
			// The stats handler cancels it when the request ends.
			ctx, cancel := context.WithTimeout(ctx, s.cfg.ReadTimeout)
			return context.WithValue(ctx, cancelKey{}, cancel), nil
		}),
	)
	g.RegisterService(&traceServiceDesc, s)
	return g
}

// grpcAuth checks the token in a request's metadata.
func (s *Server) grpcAuth(md metadata.MD) error {
	auth := ""
	if v := md.Get("authorization"); len(v) > 0 {
		auth = v[0]
	}
	if !s.tokenOK(auth) {
		s.metrics.request("grpc", "unauthorized", int(codes.Unauthenticated))
		return status.Error(codes.Unauthenticated, "a bearer token is required")
	}
	return nil
}

// traceServiceDesc is OTLP's TraceService, whose one method takes the
// request as raw bytes (see rawCodec).
var traceServiceDesc = grpc.ServiceDesc{
	ServiceName: "opentelemetry.proto.collector.trace.v1.TraceService",
	HandlerType: (*any)(nil),
	Methods:     []grpc.MethodDesc{{MethodName: "Export", Handler: export}},
	Metadata:    "opentelemetry/proto/collector/trace/v1/trace_service.proto",
}

// export serves TraceService.Export.
func export(srv any, ctx context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
	s := srv.(*Server)
	md, _ := metadata.FromIncomingContext(ctx)
	if err := s.grpcAuth(md); err != nil {
		return nil, err
	}
	// The message is read by dec, not before: what reading it may take is
	// charged first, its largest size (twice that when compressed: the
	// compressed and the decompressed bytes), then only its size.
	charge := s.cfg.MaxRequestBytes
	if h, _ := ctx.Value(headerKey{}).(*header); h != nil && h.compressed.Load() {
		charge *= 2
	}
	if err := s.reserve(charge); err != nil {
		return nil, s.grpcRefusal(err)
	}
	var req rawRequest
	if err := dec(&req); err != nil {
		s.release(charge)
		return nil, err
	}
	defer req.free()
	s.release(charge - int64(len(req.b)))
	if err := s.take(req.b, false, int64(len(req.b))); err != nil {
		return nil, s.grpcRefusal(err)
	}
	s.metrics.request("grpc", "accepted", int(codes.OK))
	b, _ := ptraceotlp.NewExportResponse().MarshalProto()
	return rawMessage(b), nil
}

// grpcRefusal is the status of a request refused with err, counted.
func (s *Server) grpcRefusal(err error) error {
	var code codes.Code
	var retry time.Duration
	switch {
	case errors.Is(err, errBadRequest):
		s.metrics.request("grpc", "malformed", int(codes.InvalidArgument))
		return status.Error(codes.InvalidArgument, strings.TrimPrefix(err.Error(), errBadRequest.Error()+": "))
	case errors.Is(err, errTooCostly):
		code = codes.ResourceExhausted
	case errors.Is(err, errQueueFull), errors.Is(err, errSpansFull), errors.Is(err, errBytesFull):
		code, retry = codes.ResourceExhausted, time.Second
	case errors.Is(err, errOutFull):
		code, retry = codes.Unavailable, 5*time.Second
	default:
		code = codes.Unavailable
	}
	s.metrics.request("grpc", "refused", int(code))
	if retry == 0 {
		return status.Error(code, err.Error())
	}
	st, _ := status.New(code, err.Error()+"; retry later").WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(retry)})
	return st.Err()
}

// A rawMessage is a protobuf message as bytes.
type rawMessage []byte

// A rawRequest is a request as the bytes gRPC received, kept in gRPC's
// own buffer when it is one (no copy), until free.
type rawRequest struct {
	b   []byte
	buf mem.BufferSlice
}

func (r *rawRequest) free() { r.buf.Free() }

// rawCodec is the server's codec: it hands TraceService its request as
// bytes, and sends its answer as given. Other messages (none today) go to
// gRPC's protobuf codec.
type rawCodec struct{}

func (rawCodec) Name() string { return "proto" }

func (rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	if m, ok := v.(rawMessage); ok {
		return mem.BufferSlice{mem.SliceBuffer(m)}, nil
	}
	return encoding.GetCodecV2("proto").Marshal(v)
}

func (rawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	if r, ok := v.(*rawRequest); ok {
		if len(data) == 1 {
			data.Ref()
			r.buf, r.b = data, data[0].ReadOnlyData()
		} else {
			r.b = data.Materialize()
		}
		return nil
	}
	return encoding.GetCodecV2("proto").Unmarshal(data, v)
}

// compression is a stats.Handler that tells the handler whether its
// request is compressed (gRPC keeps grpc-encoding out of the metadata):
// it is called with the request's headers before the handler runs. It
// also ends the request's deadline when the request ends.
type compression struct{}

// cancelKey holds the cancel function of a request's deadline.
type cancelKey struct{}

// A header holds what compression learnt of a request.
type header struct{ compressed atomic.Bool }

type headerKey struct{}

func (compression) TagRPC(ctx context.Context, _ *stats.RPCTagInfo) context.Context {
	return context.WithValue(ctx, headerKey{}, &header{})
}

func (compression) HandleRPC(ctx context.Context, st stats.RPCStats) {
	switch st := st.(type) {
	case *stats.InHeader:
		if h, _ := ctx.Value(headerKey{}).(*header); h != nil {
			h.compressed.Store(st.Compression != "" && st.Compression != "identity")
		}
	case *stats.End:
		if cancel, _ := ctx.Value(cancelKey{}).(context.CancelFunc); cancel != nil {
			cancel()
		}
	}
}

func (compression) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context { return ctx }

func (compression) HandleConn(context.Context, stats.ConnStats) {}
