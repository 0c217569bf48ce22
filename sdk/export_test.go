package sdk

// NotServedMessage is notServedMessage, for the external tests.
var NotServedMessage = notServedMessage
