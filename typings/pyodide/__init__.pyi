# A browser module of web/ (Pyodide's), typed as Any for mypy --strict over web/
from typing import Any

def __getattr__(name: str) -> Any: ...
