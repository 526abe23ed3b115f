"""Answer: the chat route, sessions and history, the stream protocol, answerers, rate limits."""
