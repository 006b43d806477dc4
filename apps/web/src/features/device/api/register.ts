import { useMutation } from '@tanstack/react-query';
import { RegisterDevice, type CallBody } from '@wildtrack/contract';
import { call } from '../../../lib/api';
import { useImportedRefresh } from './movebank';

/** Registers a device (primary user only); the tree and the device lists are read again after it. */
export function useRegisterDevice() {
  const refresh = useImportedRefresh();
  return useMutation({
    mutationFn: (body: CallBody<typeof RegisterDevice>) => call(RegisterDevice, body),
    onSuccess: () => void refresh(),
  });
}
