import { describe, expect, it } from 'vitest';
import { KeelError, keelError } from './keel-error';

class ParcelLostError extends keelError('ParcelLostError', { retryable: true, errorKind: 'network' }) {
  readonly parcel: string;

  constructor({ parcel, cause }: { parcel: string; cause?: unknown }) {
    super({ message: `parcel ${parcel} was lost`, cause });
    this.parcel = parcel;
  }
}

class DeliveryError extends keelError('DeliveryError') {}

describe('keelError', () => {
  it('makes a Keel error with its name, message, cause, retryability and error kind', () => {
    const cause = new Error('socket hang up');
    const error = new ParcelLostError({ parcel: 'P1', cause });
    expect(error).toBeInstanceOf(KeelError);
    expect(error).toBeInstanceOf(Error);
    expect(KeelError.isKeelError(error)).toBe(true);
    expect({ name: error.name, message: error.message, retryable: error.retryable, errorKind: error.errorKind, parcel: error.parcel }).toEqual({
      name: 'ParcelLostError',
      message: 'parcel P1 was lost',
      retryable: true,
      errorKind: 'network',
      parcel: 'P1',
    });
    expect(error.cause).toBe(cause);
    expect('cause' in new ParcelLostError({ parcel: 'P2' })).toBe(false);
  });

  it('tells its errors apart by a marker that works across copies of the package, where instanceof does not', () => {
    const error = new ParcelLostError({ parcel: 'P1' });
    expect(ParcelLostError.isInstance(error)).toBe(true);
    expect(DeliveryError.isInstance(error)).toBe(false);
    const copy = Object.assign(Object.create(null) as object, { [Symbol.for('keel.error.ParcelLostError')]: true });
    expect(ParcelLostError.isInstance(copy)).toBe(true);
    expect(copy instanceof ParcelLostError).toBe(false);
    expect(ParcelLostError.isInstance(undefined)).toBe(false);
    expect(ParcelLostError.isInstance('ParcelLostError')).toBe(false);
  });

  it('lets each error of a class say whether it is retryable, not retryable when it does not', () => {
    expect(new DeliveryError({ message: 'refused', retryable: true }).retryable).toBe(true);
    expect(new DeliveryError({ message: 'refused' }).retryable).toBe(false);
    expect('errorKind' in new DeliveryError({ message: 'refused' })).toBe(false);
  });
});
