import type { TMessage } from '@zelo/shared';
import { AudioMessage } from './AudioMessage';
import { CallLogMessage } from './CallLogMessage';
import { DocumentMessage } from './DocumentMessage';
import { ImageMessage } from './ImageMessage';
import { LocationMessage } from './LocationMessage';
import { VcardMessage } from './VcardMessage';
import { VideoMessage } from './VideoMessage';

/** Whether the body is shown as a caption under the media (not for types whose body is the content). */
export const bodyIsContent = (message: TMessage) =>
  message.mediaType === 'locationMessage' ||
  message.mediaType === 'vcard' ||
  message.mediaType === 'contactMessage' ||
  message.mediaType === 'call_log';

const isFileCaption = (message: TMessage) =>
  Boolean(message.mediaName) && message.body.trim() === message.mediaName?.trim();

/** The caption of a media message, or '' when the body only repeats the file name. */
export const captionOf = (message: TMessage) => (bodyIsContent(message) || isFileCaption(message) ? '' : message.body);

/** The media part of a message by its type (spec 1 §2). Null for plain text. */
export const MessageMedia = ({ message }: { message: TMessage }) => {
  switch (message.mediaType) {
    case 'locationMessage':
      return <LocationMessage body={message.body} />;
    case 'vcard':
    case 'contactMessage':
      return <VcardMessage body={message.body} />;
    case 'call_log':
      return <CallLogMessage createdAt={message.createdAt} />;
    default:
      break;
  }
  if (!message.mediaUrl) {
    return null;
  }
  switch (message.mediaType) {
    case 'image':
      return <ImageMessage url={message.mediaUrl} alt={message.mediaName ?? ''} />;
    case 'audio':
      return <AudioMessage url={message.mediaUrl} />;
    case 'video':
      return <VideoMessage url={message.mediaUrl} />;
    default:
      return <DocumentMessage url={message.mediaUrl} name={message.mediaName ?? message.body} />;
  }
};
