/** The `server` every recipe mounts (the README's blocks start after it is created). */
import { createEchoServer } from "../support";

export const server = createEchoServer();
