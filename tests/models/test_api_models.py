"""API and server models: lm-eval's own ``local-chat-completions`` client against a small
OpenAI-compatible server on 127.0.0.1 that serves the tiny model (``finereason tiny-model``) with
``transformers`` ``generate``. The verdicts lm-eval records must equal re-scoring its logged samples
with :func:`finereason.verification.scoring.score_row`, and the logged responses must be what the server sent."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

for _module in ("torch", "transformers", "tokenizers", "lm_eval", "datasets", "requests"):
    pytest.importorskip(_module, reason=f"needs {_module} (pip install 'finereason[eval,train]')")

from finereason.commands import main  # noqa: E402
from finereason.verification.scoring import score_row  # noqa: E402
from finereason.models.tiny import build_tiny_model  # noqa: E402

MAX_NEW_TOKENS = 24  # the server's cap (tasks ask for 4096; a random model would babble for minutes on CPU)
TASK = "finereason_sudoku_state_checking"
LIMIT = 4


class _TinyServer:
    """``POST /v1/chat/completions`` answered by greedy generation from a local model folder."""

    def __init__(self, model_dir: Path) -> None:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self.torch = torch
        self.tokenizer = AutoTokenizer.from_pretrained(model_dir)
        self.model = AutoModelForCausalLM.from_pretrained(model_dir).eval()
        self.requests: list[dict] = []
        self.replies: list[str] = []
        self.lock = threading.Lock()

    def complete(self, body: dict) -> str:
        ids = self.tokenizer.apply_chat_template(body["messages"], add_generation_prompt=True, return_tensors="pt")
        if not isinstance(ids, self.torch.Tensor):  # newer transformers return a BatchEncoding
            ids = ids["input_ids"]
        with self.lock, self.torch.no_grad():
            out = self.model.generate(ids, max_new_tokens=min(int(body.get("max_tokens") or 16), MAX_NEW_TOKENS),
                                      do_sample=False, pad_token_id=self.tokenizer.pad_token_id)
        text = self.tokenizer.decode(out[0, ids.shape[1]:], skip_special_tokens=True)
        with self.lock:
            self.requests.append(body)
            self.replies.append(text)
        return text

    def serve(self) -> ThreadingHTTPServer:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802  (http.server's naming)
                if self.path != "/v1/chat/completions":
                    self.send_error(404)
                    return
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                text = owner.complete(body)
                payload = json.dumps({"id": "cmpl-0", "object": "chat.completion", "model": body.get("model"),
                                      "choices": [{"index": 0, "finish_reason": "length",
                                                   "message": {"role": "assistant", "content": text}}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args) -> None:  # keep test output quiet
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    model = build_tiny_model(tmp_path_factory.mktemp("tiny") / "model")
    tiny = _TinyServer(model)
    server = tiny.serve()
    yield tiny, f"http://127.0.0.1:{server.server_address[1]}/v1/chat/completions"
    server.shutdown()


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("api") / "data"
    assert main(["build", "--out", str(out), "--per-task", "4", "--train-size", "0", "--e2e-size", "1",
                 "--domains", "sudoku"]) == 0
    return out


def test_local_chat_completions_verdicts_equal_rescoring(served, data_dir, tmp_path, monkeypatch):
    from finereason.integrations.lm_eval.models import our_tasks_only

    tiny, url = served
    monkeypatch.setenv("FINEREASON_DATA_DIR", str(data_dir))
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    monkeypatch.setenv("no_proxy", "127.0.0.1")
    out = tmp_path / "runs"
    with our_tasks_only():
        code = main(["eval", "--model", "local-chat-completions", "--model_args",
                     f"model=tiny,base_url={url},num_concurrent=1,max_retries=1,tokenized_requests=False",
                     "--apply_chat_template", "--tasks", TASK, "--output_path", str(out), "--log_samples"])
    assert code == 0
    results = json.loads(next(out.rglob("results_*.json")).read_text())
    samples = [json.loads(line) for line in next(out.rglob(f"samples_{TASK}_*.jsonl")).read_text().splitlines() if line]
    assert len(samples) == len(tiny.requests) == 4  # every row went through the server once
    assert all(r["model"] == "tiny" and r["messages"][-1]["role"] == "user" for r in tiny.requests)
    prompts = {r["messages"][-1]["content"]: reply for r, reply in zip(tiny.requests, tiny.replies)}
    correct = 0
    for sample in samples:
        response = sample["resps"][0][0]
        assert prompts[sample["doc"]["prompt"]] == response  # logged = what the server generated for that prompt
        score = score_row(sample["doc"], response)
        assert sample["acc"] == float(score.verdict.correct)
        assert sample["parse_error_rate"] == float(score.verdict.parse_error)
        correct += score.verdict.correct
    assert results["results"][TASK]["acc,none"] == pytest.approx(correct / len(samples))
    assert results["config"]["model"] == "local-chat-completions"
