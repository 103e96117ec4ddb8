"""``finereason push``: upload a built folder to the Hugging Face Hub as a dataset repository."""
from __future__ import annotations

from pathlib import Path

from .build import BuildError


def push(data: Path, repo_id: str, private: bool = False) -> str:
    """Create (or reuse) ``repo_id`` and upload ``data``; return the repository URL."""
    data = Path(data)
    if not (data / "README.md").is_file():
        raise BuildError(f"--data {data} is not a built dataset folder (no README.md)")
    if repo_id.count("/") != 1 or not all(repo_id.split("/")):
        raise BuildError(f"--repo-id must look like ORG/NAME, got {repo_id!r}")
    try:
        from huggingface_hub import HfApi
    except ImportError:
        raise BuildError("push needs huggingface_hub: pip install '.[hub]' in the finereason checkout") from None
    api = HfApi()
    try:
        url = api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
        api.upload_folder(folder_path=str(data), repo_id=repo_id, repo_type="dataset",
                          commit_message="Upload FineReason dataset built with finereason",
                          ignore_patterns=[".*"])
    except Exception as err:  # network, auth and offline errors all end here
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise BuildError(f"cannot push to the Hub ({type(err).__name__}): {first}") from None
    return str(url)
