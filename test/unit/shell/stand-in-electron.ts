/**
 * A stand-in for the `electron` module: the shell's calls into it are recorded so a test can check
 * the wiring (handlers registered, window options, session handlers) without the Electron binary.
 * It proves what the shell asks of Electron, not what Electron does with it.
 */
type Listener = (...args: unknown[]) => unknown;

export class Emitter {
  readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  once(event: string, listener: Listener): this {
    return this.on(event, listener);
  }
  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }
}

/** What the shell did, in order where order matters (a scheme must be privileged before ready). */
export const calls = {
  order: [] as string[],
  handlers: new Map<string, Listener>(),
  windows: [] as StandInWindow[],
  protocolHandlers: new Map<string, (request: Request) => Promise<Response>>(),
  privilegedSchemes: [] as unknown[],
  /** The native questions asked (dialog.showMessageBoxSync), with the window they were asked over. */
  messageBoxes: [] as Array<{ window: unknown; options: Record<string, unknown> }>,
  /** The button the stand-in user presses on the next question. */
  nextAnswer: 0,
};

export class StandInContents extends Emitter {
  windowOpenHandler: Listener | null = null;
  readonly sent: Array<[string, unknown]> = [];
  setWindowOpenHandler(handler: Listener): void {
    this.windowOpenHandler = handler;
  }
  send(channel: string, payload: unknown): void {
    this.sent.push([channel, payload]);
  }
}

export class StandInWindow extends Emitter {
  readonly webContents = new StandInContents();
  loadedUrl: string | null = null;
  focused = false;
  constructor(readonly options: Record<string, unknown>) {
    super();
    calls.windows.push(this);
  }
  loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
    return Promise.resolve();
  }
  isDestroyed = () => false;
  isMinimized = () => false;
  restore = () => undefined;
  show = () => undefined;
  focus = () => {
    this.focused = true;
  };
}

export class StandInSession extends Emitter {
  permissionRequest: Listener | null = null;
  permissionCheck: Listener | null = null;
  devicePermission: Listener | null = null;
  headersReceived: Listener | null = null;
  beforeRequest: Listener | null = null;
  setPermissionRequestHandler(handler: Listener): void {
    this.permissionRequest = handler;
  }
  setPermissionCheckHandler(handler: Listener): void {
    this.permissionCheck = handler;
  }
  setDevicePermissionHandler(handler: Listener): void {
    this.devicePermission = handler;
  }
  readonly webRequest = {
    onHeadersReceived: (handler: Listener) => {
      this.headersReceived = handler;
    },
    onBeforeRequest: (handler: Listener) => {
      this.beforeRequest = handler;
    },
  };
}

class StandInApp extends Emitter {
  isPackaged = false;
  sandboxEnabled = false;
  enableSandbox(): void {
    calls.order.push('enableSandbox');
    this.sandboxEnabled = true;
  }
  requestSingleInstanceLock = () => true;
  whenReady(): Promise<void> {
    calls.order.push('whenReady');
    return Promise.resolve();
  }
  getPath = () => '/stand-in/user-data';
  setPath = () => undefined;
  getVersion = () => '0.0.0-stand-in';
  quit = () => {
    calls.order.push('quit');
  };
  exit = () => undefined;
}

export const app = new StandInApp();
export const session = { defaultSession: new StandInSession() };

export const electron = {
  app,
  session,
  BrowserWindow: StandInWindow,
  dialog: {
    showErrorBox: (title: string, message: string) => calls.order.push(`error: ${title}: ${message}`),
    showMessageBoxSync: (window: unknown, options: Record<string, unknown>) => {
      calls.messageBoxes.push({ window, options });
      return calls.nextAnswer;
    },
  },
  ipcMain: {
    handle: (channel: string, handler: Listener) => {
      calls.handlers.set(channel, handler);
    },
  },
  protocol: {
    registerSchemesAsPrivileged: (schemes: unknown[]) => {
      calls.order.push('registerSchemesAsPrivileged');
      calls.privilegedSchemes.push(...schemes);
    },
    handle: (scheme: string, handler: (request: Request) => Promise<Response>) => {
      calls.protocolHandlers.set(scheme, handler);
    },
  },
};
