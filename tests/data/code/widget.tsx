import React from "react";

export const DEFAULT_TITLE = "Ask the docs";

/** The chat panel. */
export function ChatPanel(props: { title?: string }) {
  return <div className="panel">{props.title ?? DEFAULT_TITLE}</div>;
}

// Talks to the chat endpoint.
export class ChatClient {
  constructor(private endpoint: string) {}

  async send(question: string): Promise<Response> {
    return fetch(this.endpoint, { method: "POST", body: question });
  }
}

export interface ChatMessage {
  role: "user" | "assistant";
  content: string;
}

const streamParts = async (body: ReadableStream) => {
  return body.getReader();
};

export default ChatPanel;
