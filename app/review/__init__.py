"""Review: what a docs change does to readers and to the chat, checked before it merges (`docschat check`)."""
