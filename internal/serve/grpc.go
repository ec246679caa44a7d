package serve

import (
	"context"
	"errors"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	_ "google.golang.org/grpc/encoding/gzip" // clients may compress with gzip
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
)

// GRPCServer returns a gRPC server with the OTLP TraceService, which
// takes spans as the HTTP /v1/traces does: a message over
// Config.MaxRequestBytes is refused (RESOURCE_EXHAUSTED), as is one that
// finds the queue, the span budget or the byte budget full
// (RESOURCE_EXHAUSTED, with a RetryInfo of one second), or the backlog of
// rows that could not be written full (UNAVAILABLE, with a RetryInfo of
// five seconds); with a token, the "authorization" metadata
// must be "Bearer TOKEN" (else UNAUTHENTICATED).
func (s *Server) GRPCServer() *grpc.Server {
	g := grpc.NewServer(
		grpc.MaxRecvMsgSize(int(min(s.cfg.MaxRequestBytes, 1<<31-1))),
		grpc.ConnectionTimeout(10*time.Second),
		grpc.KeepaliveParams(keepalive.ServerParameters{MaxConnectionIdle: 5 * time.Minute}),
		grpc.UnaryInterceptor(func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
			md, _ := metadata.FromIncomingContext(ctx)
			auth := ""
			if v := md.Get("authorization"); len(v) > 0 {
				auth = v[0]
			}
			if !s.tokenOK(auth) {
				s.metrics.request("grpc", "unauthorized", int(codes.Unauthenticated))
				return nil, status.Error(codes.Unauthenticated, "a bearer token is required")
			}
			return h(ctx, req)
		}),
	)
	ptraceotlp.RegisterGRPCServer(g, &traceService{s: s})
	return g
}

type traceService struct {
	ptraceotlp.UnimplementedGRPCServer
	s *Server
}

func (t *traceService) Export(_ context.Context, req ptraceotlp.ExportRequest) (ptraceotlp.ExportResponse, error) {
	err := t.s.Ingest(req.Traces())
	switch {
	case errors.Is(err, errQueueFull), errors.Is(err, errSpansFull), errors.Is(err, errBytesFull):
		t.s.metrics.request("grpc", "refused", int(codes.ResourceExhausted))
		st, _ := status.New(codes.ResourceExhausted, err.Error()+"; retry later").
			WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(time.Second)})
		return ptraceotlp.NewExportResponse(), st.Err()
	case errors.Is(err, errOutFull):
		t.s.metrics.request("grpc", "refused", int(codes.Unavailable))
		st, _ := status.New(codes.Unavailable, err.Error()+"; retry later").
			WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(5 * time.Second)})
		return ptraceotlp.NewExportResponse(), st.Err()
	case err != nil:
		t.s.metrics.request("grpc", "refused", int(codes.Unavailable))
		return ptraceotlp.NewExportResponse(), status.Error(codes.Unavailable, err.Error())
	}
	t.s.metrics.request("grpc", "accepted", int(codes.OK))
	return ptraceotlp.NewExportResponse(), nil
}
