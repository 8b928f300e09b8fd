/**
 * The one way into the core's handlers, for the Electron shell and the browser-test bridge alike. In
 * order: who may call the channel (the core's `authorize`: the roles table of shared/ipc/roles.ts, so a
 * refused caller's payload is not even read), the request validated here, once, against the contract, the
 * channel's handler, and its answer checked against the contract too.
 */
import type { z } from 'zod';
import { ipcContract, type IpcChannel, type IpcContract, type IpcResponse } from '../../shared/ipc/contract.js';
import type { IpcEnvelope } from '../../shared/ipc/channels.js';
import { describeZodError } from '../../shared/zod-error.js';
import { CoreError, toPlainError } from './errors.js';
import type { Logger } from './logger.js';

export type ChannelRequest<C extends IpcChannel> = z.output<IpcContract[C]['request']>;
export type Handler<C extends IpcChannel> = (request: ChannelRequest<C>) => Promise<IpcResponse<C>>;
/** A domain's handler map: one handler per channel of the domain, the request already validated. */
export type HandlerMap<C extends IpcChannel> = { [K in C]: Handler<K> };
/** The channels of a domain (`settings` gives `settings:get`, `settings:save`…). */
export type ChannelsOf<D extends string> = Extract<IpcChannel, `${D}:${string}`>;

export type DispatcherDeps = {
  handlers: HandlerMap<IpcChannel>;
  /** Throws a CoreError (FORBIDDEN) when the caller may not use this channel. */
  authorize: (channel: IpcChannel) => void;
  log: Logger;
  closed: () => boolean;
};

export type Dispatcher = {
  /** The checked answer; a failure is thrown as a plain `{ code, message, field? }`, never a stack. */
  invoke<C extends IpcChannel>(channel: C, payload: unknown): Promise<IpcResponse<C>>;
  /** The same call as the envelope that crosses to the renderer (Electron IPC, the test bridge): never throws. */
  answer(channel: string, payload: unknown): Promise<IpcEnvelope>;
};

export function createDispatcher(deps: DispatcherDeps): Dispatcher {
  const run = async (channel: string, payload: unknown): Promise<unknown> => {
    if (deps.closed()) throw new CoreError('CLOSED', 'The till is shutting down.');
    if (!Object.hasOwn(ipcContract, channel)) throw new CoreError('UNKNOWN_CHANNEL', `Unknown call ${channel.slice(0, 64)}.`);
    const known = channel as IpcChannel;
    deps.authorize(known);
    const definition = ipcContract[known];
    const request = definition.request.safeParse(payload ?? {});
    if (!request.success) throw new CoreError('INVALID_REQUEST', describeZodError(request.error));
    const handler = deps.handlers[known] as (request: unknown) => Promise<unknown>;
    const response = definition.response.safeParse(await handler(request.data));
    if (!response.success) {
      deps.log.error('ipc.bad_response', { channel, issue: describeZodError(response.error) });
      throw new CoreError('INTERNAL', 'The till produced an answer it could not check. Try again.');
    }
    return response.data;
  };

  const failure = (channel: string, error: unknown) => {
    if (!(error instanceof CoreError)) deps.log.error('ipc.failed', { channel, error });
    const plain = toPlainError(error);
    return error instanceof CoreError && error.field ? { ...plain, field: error.field } : plain;
  };

  return {
    async invoke<C extends IpcChannel>(channel: C, payload: unknown) {
      try {
        return (await run(String(channel), payload)) as IpcResponse<C>;
      } catch (error) {
        throw failure(String(channel), error);
      }
    },
    async answer(channel, payload) {
      try {
        return { ok: true, value: await run(String(channel), payload) };
      } catch (error) {
        return { ok: false, error: failure(String(channel), error) };
      }
    },
  };
}
