"""GET /metrics: the Prometheus exposition, registered only when METRICS_ENABLED=true."""

from __future__ import annotations

from litestar import Response, get

from app.metrics import render_metrics


@get("/metrics", summary="Prometheus metrics (METRICS_ENABLED=true)", include_in_schema=False)
async def metrics_endpoint() -> Response[bytes]:
    body, content_type = render_metrics()
    return Response(body, media_type=content_type)
