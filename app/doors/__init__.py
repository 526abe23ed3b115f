"""Doors onto the index besides the chat: /llms.txt and /llms-full.txt (llms_txt.py) and an MCP
server (mcp_server.py: `docschat mcp` on stdio, /mcp over streamable HTTP). An edge like app/web:
it imports the search and chat features, never the reverse."""
