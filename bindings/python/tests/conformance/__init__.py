"""The WPT conformance suite replayed through the WebNN API for Python (as tests/node/conformance
does through the JS API, and `webnn conformance` through C++)."""
